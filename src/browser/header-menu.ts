export const MOBILE_MENU_ID = 'menu-movil'

/**
 * The mobile menu: the button toggles it, choosing a link or pressing Escape closes it, and
 * Escape gives focus back to the button. Works on the prerendered header of any page.
 */
export function enhanceHeaderMenu(doc: Document = document): void {
  const menu = doc.getElementById(MOBILE_MENU_ID)
  const button = doc.querySelector<HTMLButtonElement>(`button[aria-controls="${MOBILE_MENU_ID}"]`)
  if (!menu || !button) return

  const setOpen = (open: boolean) => {
    menu.hidden = !open
    button.setAttribute('aria-expanded', String(open))
    const label = open ? button.dataset.labelClose : button.dataset.labelOpen
    if (label) button.setAttribute('aria-label', label)
  }
  const isOpen = () => button.getAttribute('aria-expanded') === 'true'

  button.addEventListener('click', () => setOpen(!isOpen()))
  menu.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('a')) setOpen(false)
  })
  doc.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !isOpen()) return
    setOpen(false)
    button.focus()
  })
}
