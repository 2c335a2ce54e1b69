import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FIELD_NAMES, HONEYPOT_FIELD } from '../../contract/demo-request'
import { DRAFT_KEY } from '../../rules/draft'
import { useDemoRequest } from './use-demo-request'

const send = vi.fn<(params: Record<string, string>) => Promise<void>>()
vi.mock('../send-to-own-server', () => ({
  sendDemoRequest: (params: Record<string, string>) => send(params),
}))

beforeEach(() => {
  send.mockReset()
  delete window.dataLayer
})

afterEach(() => {
  vi.restoreAllMocks()
  document.body.replaceChildren()
})

/** The smallest form the hook can drive: its fields, the trap and what it reports. */
function RequestForm() {
  const { formRef, errors, sending, result, contactNumber, submit } = useDemoRequest()
  return (
    <form ref={formRef} onSubmit={submit} data-hold-until-hydrated="">
      {FIELD_NAMES.map((name) => (
        <input
          key={name}
          name={name}
          aria-label={name}
          aria-invalid={errors[name] ? true : undefined}
        />
      ))}
      <input name={HONEYPOT_FIELD} aria-label={HONEYPOT_FIELD} defaultValue="" />
      <input type="hidden" name="contact_number" value={contactNumber} />
      <output>{sending ? 'sending' : (result?.kind ?? 'idle')}</output>
      <button type="submit">Enviar</button>
    </form>
  )
}

const field = (name: string) => screen.getByLabelText<HTMLInputElement>(name)
const contactNumber = () =>
  document.querySelector<HTMLInputElement>('input[name="contact_number"]')!.value
const status = () => screen.getByRole('status')
const sendForm = () => act(async () => void fireEvent.submit(document.querySelector('form')!))

const typed = {
  user_name: 'Ana López',
  user_email: 'ana@grupo.mx',
  user_phone: '55 1234 5678',
  user_group: 'Grupo Altamar',
}

/** The prerendered form, filled in by the visitor before the scripts arrived. */
function prerenderTypedForm() {
  const container = document.createElement('div')
  container.innerHTML = renderToString(<RequestForm />)
  document.body.append(container)
  const form = container.querySelector('form')!
  for (const [name, value] of Object.entries(typed))
    (form.elements.namedItem(name) as HTMLInputElement).value = value
  return form
}

/**
 * What console.error reported, as the lines of React's hydration diff (`- server`, `+ client`).
 * A report that is not a hydration mismatch fails here, with its text.
 */
function hydrationDifferences(calls: unknown[][]): string[] {
  return calls.flatMap((call) => {
    const text = call.map(String).join(' ')
    expect(text, 'an error other than a hydration mismatch').toContain(
      'react.dev/link/hydration-mismatch',
    )
    // The last argument is the diff of the tree; the message before it lists causes with '- '.
    return String(call.at(-1))
      .split('\n')
      .filter((line) => /^[+-]\s/.test(line))
      .map((line) => line.replace(/\s+/g, ' ').trim())
  })
}

/** Resolves once the browser has painted a frame and run the task after it. */
const nextPaint = () =>
  new Promise((painted) => requestAnimationFrame(() => setTimeout(painted, 0)))

/** The visitor types into each field and leaves it. */
function fillIn() {
  for (const [name, value] of Object.entries(typed)) {
    fireEvent.input(field(name), { target: { value } })
    fireEvent.change(field(name))
  }
}

describe('useDemoRequest', () => {
  it('sends a submit held before hydration exactly once, with what the visitor typed', async () => {
    send.mockResolvedValue()
    const form = prerenderTypedForm()
    form.setAttribute('data-hold-state', 'held')
    const consoleErrors = vi.spyOn(console, 'error').mockImplementation(() => undefined)

    const { rerender } = await act(async () =>
      render(<RequestForm />, { container: form.parentElement!, hydrate: true }),
    )
    rerender(<RequestForm />)
    // The page's first script set data-hold-state, not React: hydration reports that attribute,
    // as it does on the page. It is the one error allowed; any other fails the test.
    expect(hydrationDifferences(consoleErrors.mock.calls)).toEqual(['- data-hold-state="held"'])
    expect(form).toHaveAttribute('data-hold-state', 'hydrated')
    // The request leaves once the frame that says it is sending has painted.
    await act(nextPaint)
    expect(send).toHaveBeenCalledExactlyOnceWith(expect.objectContaining(typed))
    expect(status()).toHaveTextContent('success')
    expect((window.dataLayer ?? []).map((entry) => (entry as { event: string }).event)).toEqual([
      'demo_form_start',
      'demo_request_submitted',
    ])
  })

  it('keeps what was typed before hydration and sends nothing that was not held', async () => {
    const form = prerenderTypedForm()
    await act(async () =>
      render(<RequestForm />, { container: form.parentElement!, hydrate: true }),
    )
    expect(field('user_name')).toHaveValue(typed.user_name)
    expect(localStorage.getItem(DRAFT_KEY)).toContain(typed.user_name)
    expect(send).not.toHaveBeenCalled()
    expect(form).toHaveAttribute('data-hold-state', 'hydrated')
  })

  it('a sent request clears the fields, the draft and the messages; the next has a new number', async () => {
    let finish: () => void = () => undefined
    send.mockReturnValue(new Promise<void>((resolve) => (finish = resolve)))
    vi.spyOn(Math, 'random').mockReturnValueOnce(0.1).mockReturnValueOnce(0.2)
    render(<RequestForm />)
    expect(contactNumber()).toBe('10000')
    fillIn()
    expect(localStorage.getItem(DRAFT_KEY)).toContain('Ana López')
    await sendForm()
    expect(status()).toHaveTextContent('sending')
    // While it is sending, the visitor empties a field and the browser refuses another submit.
    fireEvent.change(field('user_email'), { target: { value: '' } })
    act(() => void field('user_email').dispatchEvent(new Event('invalid', { cancelable: true })))
    expect(field('user_email')).toHaveAttribute('aria-invalid', 'true')
    await act(nextPaint)
    await act(async () => finish())
    expect(send).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ user_name: 'Ana López', contact_number: '10000' }),
    )
    expect(status()).toHaveTextContent('success')
    expect(field('user_name')).toHaveValue('')
    expect(field('user_email')).not.toHaveAttribute('aria-invalid')
    expect(localStorage.getItem(DRAFT_KEY)).toBeNull()
    expect(contactNumber()).toBe('20000')
  })

  it('a failed send keeps what was typed and its draft', async () => {
    send.mockRejectedValue(new TypeError('Failed to fetch'))
    render(<RequestForm />)
    fillIn()
    await sendForm()
    await waitFor(() => expect(status()).toHaveTextContent('error'))
    expect(field('user_name')).toHaveValue('Ana López')
    expect(localStorage.getItem(DRAFT_KEY)).toContain('Ana López')
  })

  it('reports the start of the form once, after the first key has painted, not inside it', async () => {
    render(<RequestForm />)
    const started = () =>
      (window.dataLayer ?? []).filter(
        (entry) => (entry as { event: string }).event === 'demo_form_start',
      )
    fireEvent.input(field('user_name'), { target: { value: 'A' } })
    expect(started()).toEqual([])
    await waitFor(() => expect(started()).toHaveLength(1))
    fireEvent.input(field('user_name'), { target: { value: 'An' } })
    fireEvent.input(field('user_email'), { target: { value: 'a' } })
    await nextPaint()
    expect(started()).toHaveLength(1)
  })
})
