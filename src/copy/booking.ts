import content from '../../content/formulario.yml?field=booking'

/**
 * Copy of the rep's free times under the success message (content/formulario.yml, `booking`):
 * a field of its own, so only the picker's chunk carries it.
 */
export const bookingCopy = content

/**
 * A text with its `{name}` gaps filled in. The same one line as fill-in.ts's, kept here: shared,
 * it would be one more name the page's first script exports (decision 027).
 */
export const fillIn = (template: string, values: Record<string, number | string>) =>
  template.replace(/\{(\w+)\}/g, (gap, name: string) => String(values[name] ?? gap))
