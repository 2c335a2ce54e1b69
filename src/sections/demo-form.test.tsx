import { Profiler } from 'react'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { DRAFT_KEY } from '../rules/draft'
import { DemoForm } from './demo-form'

const send = vi.fn<(params: Record<string, string>) => Promise<void>>()
vi.mock('../browser/send-to-own-server', () => ({
  sendDemoRequest: (params: Record<string, string>) => send(params),
}))

beforeEach(() => {
  send.mockReset()
  // jsdom has no <dialog>; these stand in for the browser's.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '')
  }
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open')
    this.dispatchEvent(new Event('close'))
  }
})

const ANA = {
  'Nombre completo*': ' Ana López ',
  'Correo electrónico*': 'ana@grupo.mx',
  'Teléfono*': '55 1234 5678',
  'Grupo o estación de servicio*': 'Grupo Altamar',
}

/** The form on its own, its required fields typed in by a visitor (by their labels). */
async function renderTyped(typed: Record<string, string> = ANA) {
  const user = userEvent.setup()
  render(<DemoForm />)
  for (const [label, text] of Object.entries(typed)) {
    await user.type(screen.getByLabelText(label), text)
  }
  return user
}

async function fillAndSend() {
  const user = await renderTyped()
  await user.click(screen.getByRole('button', { name: 'Enviar solicitud' }))
  return user
}

describe('DemoForm', () => {
  it('sends the trimmed fields with the contact number and campaign, then confirms and clears', async () => {
    send.mockResolvedValue()
    await fillAndSend()
    const alert = await screen.findByRole('alertdialog')
    expect(within(alert).getByRole('heading')).toHaveTextContent('¡Éxito!')
    expect(alert).toHaveTextContent('El mensaje se envió correctamente.')
    expect(send).toHaveBeenCalledTimes(1)
    const params = send.mock.calls[0]![0]
    expect(params).toMatchObject({
      user_name: 'Ana López',
      user_email: 'ana@grupo.mx',
      user_phone: '55 1234 5678',
      user_group: 'Grupo Altamar',
      message: '',
      traffic_source: 'directo',
    })
    expect(params.contact_number).toMatch(/^\d{1,5}$/)
    expect(screen.getByLabelText('Nombre completo*')).toHaveValue('')
    expect(localStorage.getItem(DRAFT_KEY)).toBeNull()
  })

  it('keeps the input and names the failure', async () => {
    send.mockRejectedValue({ status: 429, text: 'Too Many Requests' })
    await fillAndSend()
    const alert = await screen.findByRole('alertdialog')
    expect(within(alert).getByRole('heading')).toHaveTextContent('¡Error!')
    expect(alert).toHaveTextContent('Hubo un problema al enviar el mensaje: Too Many Requests')
    expect(screen.getByLabelText('Nombre completo*')).toHaveValue(' Ana López ')
    expect(localStorage.getItem(DRAFT_KEY)).toContain('Ana López')
  })

  it('shows the button busy while sending and sends once', async () => {
    let finish: () => void = () => undefined
    send.mockReturnValue(new Promise<void>((resolve) => (finish = resolve)))
    const user = await fillAndSend()
    const button = screen.getByRole('button', { name: 'Enviando…' })
    expect(button).toHaveAttribute('aria-disabled', 'true')
    await user.click(button)
    expect(send).toHaveBeenCalledTimes(1)
    finish()
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('¡Éxito!')
  })

  it('refuses a name of spaces and ties the message to the field', async () => {
    const user = await renderTyped({
      'Nombre completo*': '   ',
      'Correo electrónico*': 'ana@grupo.mx',
      'Teléfono*': '5512345678',
      'Grupo o estación de servicio*': 'G',
    })
    // jsdom does not run the browser's constraint validation, so this exercises our own check.
    screen.getByRole('button', { name: 'Enviar solicitud' }).closest('form')!.noValidate = true
    await user.click(screen.getByRole('button', { name: 'Enviar solicitud' }))
    const name = screen.getByLabelText('Nombre completo*')
    expect(name).toHaveAttribute('aria-invalid', 'true')
    expect(name).toHaveAccessibleDescription('Escribe tu nombre completo.')
    // Focus follows a painted frame later, as it does after the browser's own check.
    await waitFor(() => expect(name).toHaveFocus())
    expect(send).not.toHaveBeenCalled()
  })

  it('restores a draft left by an earlier visit', async () => {
    localStorage.setItem(
      DRAFT_KEY,
      JSON.stringify({ user_name: 'Ana', message: 'Hola', savedAt: Date.now() }),
    )
    render(<DemoForm />)
    expect(await screen.findByDisplayValue('Ana')).toBeInTheDocument()
    expect(screen.getByLabelText('Comentarios')).toHaveValue('Hola')
  })

  it('typing renders nothing: the fields keep what is typed, and no message is shown yet', async () => {
    const user = userEvent.setup()
    let commits = 0
    render(
      <Profiler id="form" onRender={() => (commits += 1)}>
        <DemoForm />
      </Profiler>,
    )
    const name = screen.getByLabelText('Nombre completo*')
    await user.click(name)
    const before = commits
    await user.keyboard('Ana López')
    expect(name).toHaveValue('Ana López')
    expect(commits - before).toBe(0)
  })
})
