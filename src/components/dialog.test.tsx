import { act, render, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { Dialog } from './dialog'

const showModal = vi.fn()

beforeEach(() => {
  showModal.mockReset()
  // jsdom has no <dialog>; these stand in for the browser's.
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    showModal()
    this.setAttribute('open', '')
  }
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    this.removeAttribute('open')
    this.dispatchEvent(new Event('close'))
  }
})

function Opener() {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Ver video
      </button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Video"
        closeLabel="Cerrar"
        answersTap
      >
        <p>El reproductor</p>
      </Dialog>
    </>
  )
}

const veil = (container: HTMLElement) => container.querySelector('[aria-hidden="true"]:not(svg)')

describe('Dialog', () => {
  it('answers the tap with a veil over the page, then opens as a modal', async () => {
    const { container } = render(<Opener />)
    const opener = screen.getByRole('button', { name: 'Ver video' })
    opener.focus()
    act(() => opener.click())

    // The frame that answers the tap: the page is dimmed, the (costly) modal is not open yet.
    expect(veil(container)).not.toBeNull()
    expect(showModal).not.toHaveBeenCalled()
    expect(screen.queryByRole('dialog')).toBeNull()

    const dialog = await screen.findByRole('dialog', { name: 'Video' })
    expect(showModal).toHaveBeenCalledTimes(1)
    expect(dialog).toHaveAttribute('open')
    expect(dialog).toHaveAttribute('aria-modal', 'true')
    expect(dialog).toHaveTextContent('El reproductor')
    expect(veil(container)).toBeNull()
  })

  it('answers the tap that closes it at once, and gives focus back to the button that opened it', async () => {
    render(<Opener />)
    const opener = screen.getByRole('button', { name: 'Ver video' })
    opener.focus()
    act(() => opener.click())
    const close = await screen.findByRole('button', { name: 'Cerrar' })
    const dialog = screen.getByRole('dialog')

    act(() => close.click())
    // The frame that answers the tap: the dialog is gone from sight and from the accessibility
    // tree; the (costly) close, which gives the page back, follows that paint.
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(dialog).toHaveAttribute('open')
    await waitFor(() => expect(dialog).not.toHaveAttribute('open'))
    expect(dialog).not.toHaveAttribute('hidden')
    expect(screen.queryByText('El reproductor')).toBeNull()
    expect(opener).toHaveFocus()
  })

  it('closes on Escape the same way', async () => {
    render(<Opener />)
    act(() => screen.getByRole('button', { name: 'Ver video' }).click())
    const dialog = await screen.findByRole('dialog')
    const cancel = new Event('cancel', { cancelable: true })
    act(() => void dialog.dispatchEvent(cancel))
    expect(cancel.defaultPrevented).toBe(true)
    expect(screen.queryByRole('dialog')).toBeNull()
    await waitFor(() => expect(dialog).not.toHaveAttribute('open'))
  })

  it('gives focus back to its opener even when a key moved focus before it became modal', async () => {
    render(
      <>
        <Opener />
        <a href="#despues">Después</a>
      </>,
    )
    const opener = screen.getByRole('button', { name: 'Ver video' })
    opener.focus()
    act(() => opener.click())
    // A Tab pressed in the frame of the veil, before the page behind turned inert.
    screen.getByRole('link', { name: 'Después' }).focus()
    const close = await screen.findByRole('button', { name: 'Cerrar' })

    act(() => close.click())
    await waitFor(() => expect(opener).toHaveFocus())
  })

  it('never opens when it is closed again before the modal was shown', async () => {
    const dialogThat = (open: boolean) => (
      <Dialog open={open} onClose={() => undefined} title="Video" answersTap>
        <p>El reproductor</p>
      </Dialog>
    )
    const { container, rerender } = render(dialogThat(true))
    expect(veil(container)).not.toBeNull()
    rerender(dialogThat(false))
    expect(veil(container)).toBeNull()
    await new Promise((done) => setTimeout(done, 100))
    expect(showModal).not.toHaveBeenCalled()
    expect(screen.queryByText('El reproductor')).toBeNull()
  })

  it("opens at once, with no veil, when it does not answer a tap (a send's result)", () => {
    const { container } = render(
      <Dialog open onClose={() => undefined} title="¡Éxito!" role="alertdialog">
        <p>Recibimos tu solicitud</p>
      </Dialog>,
    )
    expect(showModal).toHaveBeenCalledTimes(1)
    expect(screen.getByRole('alertdialog', { name: '¡Éxito!' })).toHaveAttribute('open')
    expect(veil(container)).toBeNull()
  })
})
