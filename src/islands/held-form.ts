/**
 * The island's side of hold-early-submits.js, for a form rendered with data-hold-until-hydrated:
 * a prerendered form is usable before its island hydrates, so what the visitor did with it in
 * that time is handed over here.
 */
const STATE_ATTRIBUTE = 'data-hold-state'

/** From now on the island handles every submit. Returns true when one was held for it. */
export function takeOverHeldForm(form: HTMLFormElement): boolean {
  const held = form.getAttribute(STATE_ATTRIBUTE) === 'held'
  form.setAttribute(STATE_ATTRIBUTE, 'hydrated')
  return held
}

/** Undoes the "sending" look the hold gave the submit button, when the island does not send. */
export function releaseHeldButton(form: HTMLFormElement): void {
  form.querySelector('[type="submit"]')?.removeAttribute('aria-disabled')
}

/** What the visitor typed into the prerendered fields before hydration, by field name. */
export function typedValues<Name extends string>(
  form: HTMLFormElement,
  names: readonly Name[],
): Record<Name, string> {
  const values = {} as Record<Name, string>
  for (const name of names) {
    const field = form.elements.namedItem(name)
    values[name] =
      field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement ? field.value : ''
  }
  return values
}
