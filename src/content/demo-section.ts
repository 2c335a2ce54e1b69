import content from '../../content/inicio.yml?field=demoSection'
import { POSTED_RESULT_IDS } from '../contract/demo-request'
import { anchors } from './anchors'

/**
 * The demo section's static copy (content/inicio.yml). Kept apart from the form's own copy
 * (content/formulario.yml), which the form island's script carries: this part is only ever in
 * the HTML.
 */
export const demoSection = {
  ...content,
  id: anchors.demo,
  headingId: anchors.demoHeading,
  /** What the page says after the form was posted by the browser itself (scripts off). */
  posted: {
    sentId: POSTED_RESULT_IDS.sent,
    failedId: POSTED_RESULT_IDS.failed,
    failedText: content.postedFailed,
  },
}
