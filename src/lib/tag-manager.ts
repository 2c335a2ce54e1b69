export const TAG_MANAGER_ORIGIN = 'https://www.googletagmanager.com'

/**
 * Loads the configured tag manager once the page is interactive and idle, so it never
 * competes with the first paint or the visitor's first input.
 */
export function loadTagManagerWhenIdle(id: string | null): void {
  if (!id) return
  const inject = () => {
    window.dataLayer ??= []
    window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' })
    const script = document.createElement('script')
    script.async = true
    script.src = `${TAG_MANAGER_ORIGIN}/gtm.js?id=${encodeURIComponent(id)}`
    document.head.append(script)
  }
  const whenIdle = () =>
    'requestIdleCallback' in window
      ? requestIdleCallback(inject, { timeout: 4000 })
      : setTimeout(inject, 2000)
  if (document.readyState === 'complete') whenIdle()
  else window.addEventListener('load', whenIdle, { once: true })
}
