// The one schema of a demo request sent to our own door (POST /api/demo-requests): the page
// runs it before it sends, the server runs it on what arrives, so both refuse the same request
// with the same Spanish sentence. The field rules (required, length, e-mail, phone) are the
// form's own, with the messages the form shows beside its fields (content/formulario.yml, which
// the build hands the server in dist/.site.json); the page also checks each field with
// `fieldProblem` as the visitor types, without loading zod. What only a script or a bot sends
// (unknown parameters, control characters, numbers) is refused with the server's sentences.
import { z } from 'zod/mini'
import { ATTRIBUTION_MAX_LENGTH } from './attribution.js'
import { hasForbiddenCharacters, isInvisible, withoutForbiddenCharacters } from './characters.js'
import {
  CONTACT_NUMBER_PARAM,
  FIELD_NAMES,
  isContactNumber,
  MAX_CONTACT_NUMBER,
  MAX_LENGTH,
  type FieldName,
} from './demo-request.js'
import { fieldProblem, type FieldMessages } from './demo-request-fields.js'
import { refusals } from './lead-server-text.js'

/** Every parameter the page may send, with the longest value each may hold. */
export const PARAM_MAX_LENGTH: Readonly<Record<string, number>> = {
  ...MAX_LENGTH,
  [CONTACT_NUMBER_PARAM]: String(MAX_CONTACT_NUMBER - 1).length,
  ...ATTRIBUTION_MAX_LENGTH,
}

const isField = (name: string): name is FieldName =>
  (FIELD_NAMES as readonly string[]).includes(name)

/**
 * An attribution value made safe: it comes from anyone's link, not from the visitor's typing, so
 * an invisible character in it is made a space rather than costing the visitor their request.
 */
export const safeAttribution = (value: string): string =>
  withoutForbiddenCharacters(value).replace(/ {2,}/g, ' ').trim()

/** The fields trimmed, as the page sends them, and the attribution made safe. */
function cleaned(params: Readonly<Record<string, string>>): Record<string, string> {
  // fromEntries defines own properties, so a "__proto__" parameter stays plain data.
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => [
      name,
      Object.hasOwn(ATTRIBUTION_MAX_LENGTH, name)
        ? safeAttribution(value)
        : isField(name)
          ? value.trim()
          : value,
    ]),
  )
}

/** Why one parameter cannot be taken, or undefined. */
function paramProblem(name: string, value: string, messages: FieldMessages): string | undefined {
  const max = Object.hasOwn(PARAM_MAX_LENGTH, name) ? PARAM_MAX_LENGTH[name] : undefined
  if (max === undefined) return refusals.malformed
  if (hasForbiddenCharacters(value))
    return refusals.forbiddenCharacters(isField(name) ? name : null)
  if (!isField(name)) {
    if (value.length > max) return refusals.malformed
    if (name === CONTACT_NUMBER_PARAM && !isContactNumber(value)) {
      return refusals.contactNumberNotDigits
    }
    return undefined
  }
  // A field of nothing but a zero-width space or a direction mark is empty to a person.
  if (isInvisible(value)) return refusals.forbiddenCharacters(name)
  return fieldProblem(name, value, messages)
}

/**
 * The demo request as the door takes it: a JSON object of text, the form's fields and the
 * contact number and attribution beside them. Parsed, it is what is stored; each issue's
 * message is a sentence for the visitor, its path the parameter it speaks of.
 */
export function demoRequestSchema(messages: FieldMessages) {
  const sent = z.record(z.string(), z.string({ error: refusals.notText }), {
    error: refusals.malformed,
  })
  const checked = z.record(z.string(), z.string()).check(
    z.superRefine((params, context) => {
      for (const name of FIELD_NAMES) {
        if (Object.hasOwn(params, name)) continue
        const missing = fieldProblem(name, '', messages)
        if (missing !== undefined)
          context.addIssue({ code: 'custom', message: missing, path: [name] })
      }
      for (const [name, value] of Object.entries(params)) {
        const problem = paramProblem(name, value, messages)
        if (problem !== undefined)
          context.addIssue({ code: 'custom', message: problem, path: [name] })
      }
    }),
  )
  return z.pipe(z.pipe(sent, z.transform(cleaned)), checked)
}

/** The sentence a refused request is answered with: each distinct problem once, in order. */
export function refusalText(issues: readonly { message: string }[]): string {
  return [...new Set(issues.map((issue) => issue.message))].join(' ')
}
