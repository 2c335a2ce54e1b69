/**
 * Conversion events for whatever analytics the business connects: each is pushed to
 * `window.dataLayer` (what tag managers read) and dispatched as a DOM CustomEvent of the same
 * name on `window`. Events never carry a name, e-mail or phone.
 */
const CTA_NAMES = ['header', 'hero', 'whatsapp', 'email'] as const
type CtaName = (typeof CTA_NAMES)[number]

type AnalyticsEvent =
  | { event: 'demo_form_start' }
  | { event: 'demo_request_submitted'; traffic_source: string }
  | { event: 'demo_request_failed'; error: string }
  | { event: 'demo_request_fallback'; channel: 'whatsapp' | 'email' }
  | { event: 'video_open'; placement: 'hero' | 'video_section' }
  | { event: 'cta_click'; cta: CtaName }

declare global {
  interface Window {
    dataLayer?: object[]
  }
}

export function track(data: AnalyticsEvent): void {
  if (typeof window === 'undefined') return
  window.dataLayer ??= []
  window.dataLayer.push({ ...data })
  window.dispatchEvent(new CustomEvent(data.event, { detail: { ...data } }))
}

const isCtaName = (value: string | undefined): value is CtaName =>
  CTA_NAMES.some((name) => name === value)

/** One listener reports every call to action marked with data-cta="…", static or hydrated. */
export function trackCtaClicks(doc: Document = document): void {
  doc.addEventListener('click', (event) => {
    if (!(event.target instanceof Element)) return
    const cta = event.target.closest<HTMLElement>('[data-cta]')?.dataset.cta
    if (isCtaName(cta)) track({ event: 'cta_click', cta })
  })
}
