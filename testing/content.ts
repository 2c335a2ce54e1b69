import { z } from 'zod'
import { readContentFile, readProseFile } from '../pipeline/loader/read.ts'
import { contentFiles } from '../src/copy/schema.ts'
import { withCarouselControls, withFormMessages, withPostedResults } from '../src/copy/fill-in.ts'

/**
 * The site's words as the suites that drive a browser read them: from content/, checked by the
 * same schema as the build, so a copy edit never breaks a test that looks for the copy. (The
 * page's own loaders, src/copy/*.ts, import content/ through Vite, which these suites do not
 * run in.) Pictures are left as their references: a suite finds them on the page.
 */
const site = readContentFile('sitio.yml')
const home = readContentFile('inicio.yml')
const form = readContentFile('formulario.yml')

export const { contact, header, footer, consent } = site
export const navLinks = header.links
export const { hero, heroActions, heroBoard, videoDialog, clients, pillars, videoSection } = home
export const { fallbackMessage, booking, bookingPage, bookingAnswers } = form
/** The booking's words as the build hands them to the server (dist/.site.json). */
export const bookingTexts = { page: bookingPage, answers: bookingAnswers }

export const carousel = withCarouselControls(home.carousel)
export const demoForm = withFormMessages(form.demoForm)
/** The form's messages as the file writes them, as the build hands them to the server. */
export const formMessageTexts = {
  required: form.demoForm.errors.required,
  email: form.demoForm.errors.email,
  phone: form.demoForm.errors.phone,
  tooLong: form.demoForm.errors.tooLong,
}
export const demoSection = withPostedResults(home.demoSection)

export const termsPage = readContentFile('tyc.yml')
export const legalTexts = {
  terms: readProseFile('terminos.md'),
  privacy: readProseFile('privacidad.md'),
}

/**
 * The longest text the schema lets a field hold, e.g. maxLength('inicio.yml', 'hero.title'):
 * the e2e suite puts that much text on the page to see that it still fits.
 */
export function maxLength(file: keyof typeof contentFiles, path: string): number {
  let node = z.toJSONSchema(contentFiles[file], { io: 'input', unrepresentable: 'any' }) as Schema
  for (const key of path.split('.'))
    node = (/^\d+$/.test(key) ? node.items : node.properties?.[key])!
  if (node?.maxLength === undefined) throw new Error(`${file} has no length limit at ${path}`)
  return node.maxLength
}
type Schema = { properties?: Record<string, Schema>; items?: Schema; maxLength?: number }

/** The text a field holds now, e.g. contentValue('inicio.yml', 'hero.proof.0.figure'). */
export function contentValue(file: keyof typeof contentFiles, path: string): string {
  let value: unknown = readContentFile(file)
  for (const key of path.split('.')) value = (value as Record<string, unknown>)[key]
  if (typeof value !== 'string') throw new Error(`${file} holds no text at ${path}`)
  return value
}
