export const TAG_MANAGER_ORIGIN = 'https://www.googletagmanager.com'

/** Adds the container's script once. Call it only after the visitor has accepted tags. */
export function loadTagManager(id: string, doc: Document = document): void {
  const src = `${TAG_MANAGER_ORIGIN}/gtm.js?id=${encodeURIComponent(id)}`
  if (doc.querySelector(`script[src="${src}"]`)) return
  window.dataLayer ??= []
  window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' })
  const script = doc.createElement('script')
  script.async = true
  script.src = src
  doc.head.append(script)
}

/** Runs `task` once the page is loaded and idle, so it never competes with the first paint. */
export function whenIdle(task: () => void): void {
  const schedule = () =>
    'requestIdleCallback' in window
      ? requestIdleCallback(task, { timeout: 4000 })
      : setTimeout(task, 2000)
  if (document.readyState === 'complete') schedule()
  else window.addEventListener('load', schedule, { once: true })
}
