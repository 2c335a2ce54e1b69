import { POSTED_RESULT_IDS } from '../contract/demo-request'
import { anchors } from './anchors'
import type { FormContent, HomeContent } from './schema'

/** A content template with its `{name}` gaps filled in: 'Ir a la diapositiva {n}' → '… 3'. */
const fillIn = (template: string, values: Record<string, number | string>) =>
  template.replace(/\{(\w+)\}/g, (gap, name: string) => String(values[name] ?? gap))

// What the components read beyond the files' own fields, made in one place for the page's
// loaders (this folder) and for the browser suites, which read content/ outside Vite
// (testing/content.ts).

/** The carousel's controls, their templates turned into the functions the carousel calls. */
export const withCarouselControls = (carousel: HomeContent['carousel']) => ({
  ...carousel,
  controls: {
    ...carousel.controls,
    goTo: (n: number) => fillIn(carousel.controls.goTo, { n }),
    slideOf: (n: number, total: number) => fillIn(carousel.controls.slideOf, { n, total }),
  },
})

/** The form's copy, with the optional field's empty "required" message and the length one. */
export const withFormMessages = (demoForm: FormContent['demoForm']) => ({
  ...demoForm,
  errors: {
    ...demoForm.errors,
    required: { ...demoForm.errors.required, message: '' },
    tooLong: (max: number) => fillIn(demoForm.errors.tooLong, { max }),
  },
})

/** The demo section with its fragment ids and what it says after a post with scripts off. */
export const withPostedResults = (demoSection: HomeContent['demoSection']) => ({
  ...demoSection,
  id: anchors.demo,
  headingId: anchors.demoHeading,
  posted: {
    sentId: POSTED_RESULT_IDS.sent,
    failedId: POSTED_RESULT_IDS.failed,
    failedText: demoSection.postedFailed,
  },
})
