import { anchors } from '../copy/anchors'
import bannerCss from './consent-banner.css?inline'
import { local } from './storage'
import {
  consentSignals,
  deleteTagCookies,
  gtag,
  readConsent,
  saveConsent,
  type ConsentChoice,
} from './consent'
import { afterNextPaint } from './after-next-paint'
import { loadTagManager, whenIdle } from './tag-manager'

/**
 * The banner's CSS, adopted as a constructed stylesheet: it is not in the pages' inline CSS, so
 * builds without a tag manager carry none of it, and the CSP's style hashes stay as they are.
 */
function adoptBannerStyles(doc: Document): void {
  if (!('adoptedStyleSheets' in doc)) return
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(bannerCss)
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet]
}

/**
 * Keeps the bar clear of the demo form's submit button: it stays at the bottom unless it would
 * cover the button there, and then moves under the header (a transform: no layout shift). While
 * it is at the bottom, the page can scroll its last lines, and focus, above it.
 */
function keepClearOfSubmit(banner: HTMLElement, doc: Document) {
  const root = doc.documentElement
  let frame = 0
  const place = () => {
    frame = 0
    const height = banner.offsetHeight
    const viewport = root.clientHeight
    const headerBottom = doc.querySelector('header')?.getBoundingClientRect().bottom ?? 0
    const submit = doc.querySelector(`#${anchors.demo} button[type="submit"]`)
    let top = false
    if (submit) {
      const button = submit.getBoundingClientRect()
      const coversAtBottom = button.bottom > viewport - height && button.top < viewport
      const coversAtTop = button.top < headerBottom + height && button.bottom > headerBottom
      top = coversAtBottom && !coversAtTop
    }
    banner.dataset.dock = top ? 'top' : 'bottom'
    root.style.setProperty('scroll-padding-bottom', top ? '' : `${height}px`)
    doc.body.style.setProperty('padding-bottom', `${height}px`)
  }
  const schedule = () => {
    if (frame === 0) frame = requestAnimationFrame(place)
  }
  return {
    start() {
      place()
      window.addEventListener('scroll', schedule, { passive: true })
      window.addEventListener('resize', schedule, { passive: true })
    },
    stop() {
      cancelAnimationFrame(frame)
      frame = 0
      window.removeEventListener('scroll', schedule)
      window.removeEventListener('resize', schedule)
      root.style.removeProperty('scroll-padding-bottom')
      doc.body.style.removeProperty('padding-bottom')
    },
  }
}

/**
 * Consent before any tag. Google Consent Mode's defaults (all denied) are in the data layer
 * from the start; the container loads only once the visitor has accepted, now or within the
 * last six months. Rejecting never loads it, and withdrawing stops it from the next page on.
 * Works on the prerendered banner and footer button of any page, with or without React.
 */
export function startConsent(containerId: string, doc: Document = document): void {
  gtag('consent', 'default', consentSignals('denied'))
  let current = readConsent(local)
  if (current === 'granted') {
    gtag('consent', 'update', consentSignals('granted'))
    // Withdrawn before the page went idle: then it never loads.
    whenIdle(() => current === 'granted' && loadTagManager(containerId, doc))
  } else if (current === 'denied') {
    // What a container loaded before a withdrawal may have left behind.
    deleteTagCookies(doc)
  }

  const banner = doc.querySelector<HTMLElement>('[data-consent-banner]')
  if (!banner) return
  adoptBannerStyles(doc)
  const dock = keepClearOfSubmit(banner, doc)
  let opener: HTMLElement | null = null

  const open = (moveFocus: boolean) => {
    banner.hidden = false
    dock.start()
    if (moveFocus) {
      banner.tabIndex = -1
      banner.focus({ preventScroll: true })
    }
  }
  const close = () => {
    const hadFocus = banner.contains(doc.activeElement)
    dock.stop()
    banner.hidden = true
    if (hadFocus) (opener ?? doc.getElementById(anchors.main))?.focus({ preventScroll: true })
    opener = null
  }
  const choose = (choice: ConsentChoice) => {
    saveConsent(local, choice)
    if (choice === 'granted') {
      gtag('consent', 'update', consentSignals('granted'))
      loadTagManager(containerId, doc)
    } else if (current === 'granted') {
      gtag('consent', 'update', consentSignals('denied'))
      deleteTagCookies(doc)
    }
    current = choice
    close()
  }

  banner.addEventListener('click', (event) => {
    if (!(event.target instanceof Element)) return
    const choice = event.target.closest<HTMLElement>('[data-consent-choice]')?.dataset.consentChoice
    if (choice === 'granted' || choice === 'denied') choose(choice)
  })
  doc.addEventListener('click', (event) => {
    if (!(event.target instanceof Element)) return
    const button = event.target.closest<HTMLElement>('[data-consent-open]')
    if (!button) return
    opener = button
    open(true)
  })
  // Reopened from the footer, the banner can be left as it was; a first choice cannot.
  doc.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !banner.hidden && current !== null) close()
  })

  // After the first paint, so the bar never delays it or becomes its largest element.
  if (current === null) afterNextPaint(() => open(false))
}
