import { FIELD_NAMES, type FieldName } from '../../contract/demo-request'

type RequestField = HTMLInputElement | HTMLTextAreaElement

/** One of the request's fields in the form (the page's fields are the only copy of the values). */
export function requestField(form: HTMLFormElement, name: FieldName): RequestField | null {
  const field = form.elements.namedItem(name)
  return field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement ? field : null
}

/** The request field an event came from, if it came from one (the bot trap is not). */
export function requestFieldOf(target: EventTarget | null): RequestField | undefined {
  if (!(target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)) return
  return FIELD_NAMES.some((name) => name === target.name) ? target : undefined
}
