import privacy from '../../content/privacidad.md'
import terms from '../../content/terminos.md'

/** The /tyc page: its own words (content/tyc.yml) and the two legal texts in Markdown. */
export { default as termsPage } from '../../content/tyc.yml'
export const legalTexts = { terms, privacy }
