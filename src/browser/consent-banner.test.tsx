import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { consent } from '../copy/site'
import { ConsentBanner } from '../sections/consent-banner'
import { CONSENT_KEY } from './consent'
import { startConsent } from './consent-banner'
import { dataLayerSteps } from '../../testing/data-layer'

const CONTAINER = 'GTM-TEST123'
const containerScript = () => document.head.querySelector('script[src*="gtm.js"]')

// The prerendered page: the banner and the footer's button, as on /tyc (no React needed).
function renderPage() {
  render(
    <>
      <ConsentBanner />
      <main id="contenido" tabIndex={-1} />
      <button type="button" data-consent-open="">
        {consent.reopen}
      </button>
    </>,
  )
  return { banner: document.querySelector<HTMLElement>('[data-consent-banner]')! }
}

/** Lets the frame after the first paint pass, when the banner opens. */
const afterFirstPaint = () =>
  act(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 10)))
  })

beforeEach(() => {
  delete window.dataLayer
  localStorage.clear()
})

afterEach(() => {
  containerScript()?.remove()
  vi.useRealTimers()
})

// Clicks and frames in jsdom are slow on a loaded machine; the checks stay the same.
/** A visitor who chose before comes back and reopens the banner from the footer. */
async function reopenedAfter(choice: 'granted' | 'denied') {
  localStorage.setItem(CONSENT_KEY, JSON.stringify({ choice, savedAt: Date.now() }))
  const { banner } = renderPage()
  startConsent(CONTAINER)
  const reopen = screen.getByRole('button', { name: consent.reopen })
  await userEvent.click(reopen)
  return { banner, reopen }
}

describe('consent before any tag', { timeout: 20_000 }, () => {
  it('asks after the first paint, with Consent Mode denied and no container meanwhile', async () => {
    const { banner } = renderPage()
    startConsent(CONTAINER)
    expect(dataLayerSteps(window.dataLayer)).toEqual(['consent default'])
    expect(banner).not.toBeVisible()
    await afterFirstPaint()
    expect(banner).toBeVisible()
    expect(screen.getByRole('button', { name: 'Aceptar' })).toBeVisible()
    expect(screen.getByRole('button', { name: 'Rechazar' })).toBeVisible()
    expect(containerScript()).toBeNull()
  })

  it('on Aceptar updates consent, then loads the container, and remembers it', async () => {
    const { banner } = renderPage()
    startConsent(CONTAINER)
    await afterFirstPaint()
    await userEvent.click(screen.getByRole('button', { name: 'Aceptar' }))
    expect(dataLayerSteps(window.dataLayer)).toEqual([
      'consent default',
      'consent update',
      'gtm.js',
    ])
    expect(Array.from(window.dataLayer![1] as ArrayLike<unknown>)[2]).toMatchObject({
      analytics_storage: 'granted',
      ad_storage: 'granted',
    })
    expect(containerScript()).not.toBeNull()
    expect(banner).not.toBeVisible()
    expect(JSON.parse(localStorage.getItem(CONSENT_KEY)!)).toMatchObject({ choice: 'granted' })
  })

  it('on Rechazar loads nothing, and does not ask again on the next page', async () => {
    const { banner } = renderPage()
    startConsent(CONTAINER)
    await afterFirstPaint()
    await userEvent.click(screen.getByRole('button', { name: 'Rechazar' }))
    expect(banner).not.toBeVisible()
    expect(dataLayerSteps(window.dataLayer)).toEqual(['consent default'])
    expect(containerScript()).toBeNull()
    expect(JSON.parse(localStorage.getItem(CONSENT_KEY)!)).toMatchObject({ choice: 'denied' })
  })

  it('loads the container when idle on a later page when it was accepted', async () => {
    localStorage.setItem(CONSENT_KEY, JSON.stringify({ choice: 'granted', savedAt: Date.now() }))
    vi.useFakeTimers()
    const { banner } = renderPage()
    startConsent(CONTAINER)
    expect(dataLayerSteps(window.dataLayer)).toEqual(['consent default', 'consent update'])
    expect(containerScript()).toBeNull()
    vi.advanceTimersByTime(2000)
    expect(containerScript()).not.toBeNull()
    vi.advanceTimersByTime(100)
    expect(banner).not.toBeVisible()
  })

  it('reopens from the footer with focus, and withdrawing updates consent to denied', async () => {
    const { banner, reopen } = await reopenedAfter('granted')
    expect(banner).toBeVisible()
    expect(banner).toHaveFocus()
    await userEvent.click(screen.getByRole('button', { name: 'Rechazar' }))
    expect(dataLayerSteps(window.dataLayer).slice(-1)).toEqual(['consent update'])
    expect(Array.from(window.dataLayer!.at(-1) as ArrayLike<unknown>)[2]).toMatchObject({
      analytics_storage: 'denied',
    })
    expect(banner).not.toBeVisible()
    expect(reopen).toHaveFocus()
    expect(JSON.parse(localStorage.getItem(CONSENT_KEY)!)).toMatchObject({ choice: 'denied' })
  })

  it('once a choice exists, Escape closes the reopened banner and keeps it', async () => {
    const { banner, reopen } = await reopenedAfter('denied')
    await userEvent.keyboard('{Escape}')
    expect(banner).not.toBeVisible()
    expect(reopen).toHaveFocus()
    expect(JSON.parse(localStorage.getItem(CONSENT_KEY)!)).toMatchObject({ choice: 'denied' })
  })
})
