/**
 * Conversion events for whatever analytics the business connects: each is pushed to
 * `window.dataLayer` (what tag managers read) and dispatched as a DOM CustomEvent of the same
 * name on `window`. Events never carry a name, e-mail or phone.
 */
export type AnalyticsEvent =
  | { event: 'demo_form_start' }
  | { event: 'demo_request_submitted'; traffic_source: string }
  | { event: 'demo_request_failed'; error: string }
  | { event: 'video_open'; placement: 'hero' | 'video_section' }
  | { event: 'cta_click'; cta: 'header' | 'mobile_menu' | 'hero' }

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
