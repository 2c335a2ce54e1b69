import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { SiteHeader } from '../sections/site-header'
import { enhanceHeaderMenu } from './header-menu'

function renderHeader() {
  render(<SiteHeader linkBase="" />)
  enhanceHeaderMenu(document)
  return userEvent.setup()
}

const mobileMenu = () => document.getElementById('menu-movil')!

describe('mobile menu', () => {
  it('starts closed, with a named button that controls it', () => {
    renderHeader()
    const button = screen.getByRole('button', { name: 'Abrir menú' })
    expect(button).toHaveAttribute('aria-expanded', 'false')
    expect(button).toHaveAttribute('aria-controls', 'menu-movil')
    expect(mobileMenu()).not.toBeVisible()
  })

  it('opens and closes with the button, renaming it', async () => {
    const user = renderHeader()
    await user.click(screen.getByRole('button', { name: 'Abrir menú' }))
    expect(mobileMenu()).toBeVisible()
    expect(screen.getByRole('button', { name: 'Cerrar menú' })).toHaveAttribute(
      'aria-expanded',
      'true',
    )
    await user.click(screen.getByRole('button', { name: 'Cerrar menú' }))
    expect(mobileMenu()).not.toBeVisible()
  })

  it('closes when a link is chosen', async () => {
    const user = renderHeader()
    await user.click(screen.getByRole('button', { name: 'Abrir menú' }))
    await user.click(screen.getByRole('navigation', { name: 'Menú' }).querySelector('a')!)
    expect(mobileMenu()).not.toBeVisible()
  })

  it('closes on Escape and gives focus back to its button', async () => {
    const user = renderHeader()
    await user.click(screen.getByRole('button', { name: 'Abrir menú' }))
    await user.keyboard('{Escape}')
    expect(mobileMenu()).not.toBeVisible()
    expect(screen.getByRole('button', { name: 'Abrir menú' })).toHaveFocus()
  })
})
