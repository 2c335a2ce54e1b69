import { useCallback, useRef, useState, type ReactNode } from 'react'
import { afterNextPaint } from '../after-next-paint'
import { track } from '../analytics'
import { local, session } from '../storage'
import { mailConfig } from '../../config/build-values'
import { attributionParams, captureFirstTouch } from '../../rules/attribution'
import { trimValues, type DemoRequestValues } from '../../rules/demo-request'
import type { FallbackLinks } from '../../rules/fallback-links'
import { sendErrorText } from '../../rules/send-error-text'
import { releaseHeldButton } from '../../islands/held-form'
import { HONEYPOT_FIELD } from '../../contract/demo-request'

export type SendResult =
  /**
   * `growing`: something will follow the message (the rep's free times, decision 027), `next`
   * once it has loaded.
   */
  | { kind: 'success'; growing?: true; next?: ReactNode }
  /** `links` send the request that failed by other ways (null if they could not be loaded). */
  | { kind: 'error'; text: string; links: FallbackLinks | null }

// Loaded with the visitor's first input, never with the page: the sender, and the links needed
// only when a send fails. A load that failed (a dropped connection on a phone) is tried again by
// the next call; a loaded module is the browser's to keep. The build keeps one sender and drops
// the other: an own-server build sends to our own door and carries no e-mail SDK; a build for
// the e-mail service sends with the SDK (one chunk with it).
declare const __OWN_SERVER__: boolean
const loadSender = __OWN_SERVER__
  ? () => import('../send-to-own-server')
  : () => import('../send-demo-request')
const loadFallbackLinks = () => import('../../rules/fallback-links')

/**
 * Sends the demo request, one at a time, and keeps its outcome for the alert. `checkRequest`
 * shows what is wrong and answers whether it may be sent; `onSent` runs once the request is
 * gone (or a bot was told so). A failure keeps everything and offers other ways to send it.
 */
export function useSendRequest(
  checkRequest: (form: HTMLFormElement, request: DemoRequestValues) => boolean,
  onSent: () => void,
) {
  const [sending, setSending] = useState(false)
  const [result, setResult] = useState<SendResult | null>(null)
  const sendingRef = useRef(false)
  const started = useRef(false)

  /**
   * The visitor started the form: reported once, and what a send needs starts loading, after
   * the key that started it has painted (two fetches started inside a key event slow its answer).
   */
  const markStarted = () => {
    if (started.current) return
    started.current = true
    track({ event: 'demo_form_start' })
    afterNextPaint(() => {
      void loadSender().catch(() => undefined)
      void loadFallbackLinks().catch(() => undefined)
    })
  }

  const send = async (form: HTMLFormElement, request: DemoRequestValues, contactNumber: string) => {
    if (sendingRef.current) return
    if (!checkRequest(form, request)) {
      releaseHeldButton(form)
      return
    }

    const succeed = (following?: Promise<ReactNode>) => {
      onSent()
      setResult({ kind: 'success', growing: following && true })
      void following?.then((next) =>
        setResult((shown) => (shown?.kind === 'success' ? { ...shown, next } : shown)),
      )
    }

    // A filled honeypot is a bot: it is told it succeeded and nothing is sent.
    const trap = form.elements.namedItem(HONEYPOT_FIELD)
    if (trap instanceof HTMLInputElement && trap.value !== '') {
      trap.value = ''
      releaseHeldButton(form)
      succeed()
      return
    }

    sendingRef.current = true
    setSending(true)
    const campaign = attributionParams(
      captureFirstTouch(session, new URL(window.location.href), document.referrer),
    )
    const sent = { ...trimValues(request), contact_number: contactNumber }
    try {
      // The tap is answered by "Enviando…" alone; the send starts once that frame has painted.
      // Checked, encoded and posted within the tap, the request (and an answer from a server
      // close by, whose dialog makes the whole page inert) held that frame back: tens of
      // milliseconds on a slow phone.
      await new Promise<void>((painted) => afterNextPaint(painted))
      const { sendDemoRequest } = await loadSender()
      // The e-mail service's sender resolves with nothing; our own door's may lead further.
      const answer = (await sendDemoRequest({ ...sent, ...campaign }, mailConfig, local)) as
        { next?: Promise<ReactNode> } | undefined
      track({ event: 'demo_request_submitted', traffic_source: campaign.traffic_source })
      succeed(answer?.next)
    } catch (error) {
      const text = sendErrorText(error)
      track({ event: 'demo_request_failed', error: text })
      const links = await loadFallbackLinks().then(
        ({ salesRequestLinks }) => salesRequestLinks(sent),
        () => null,
      )
      setResult({ kind: 'error', text, links })
    } finally {
      sendingRef.current = false
      setSending(false)
    }
  }

  // Stable, so the alert (memoised) does not render again with every message in the form.
  const dismissResult = useCallback(() => setResult(null), [])

  return { sending, result, markStarted, send, dismissResult }
}
