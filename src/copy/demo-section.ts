import content from '../../content/inicio.yml?field=demoSection'
import { withPostedResults } from './fill-in'

/**
 * The demo section's static copy (content/inicio.yml). Kept apart from the form's own copy
 * (content/formulario.yml), which the form island's script carries: this part is only ever in
 * the HTML.
 */
export const demoSection = withPostedResults(content)
