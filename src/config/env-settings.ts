/**
 * How an environment variable is described and read, for both schemas: the build's
 * (build-settings.ts) and the production server's (server/settings/config.ts). Node only.
 */
import type { z } from 'zod'

export type Env = Readonly<Record<string, string | undefined>>

/** One setting: what it means, its default (as it would be written), and how its text is read. */
interface Setting<T> {
  description: string
  /** Read through `schema` like any value; undefined: unset. */
  default: string | undefined
  /** What the error says a value must be. */
  expected: string
  schema: z.ZodType<T, string>
  /** A secret: a wrong value is not written into the error (it goes to logs). */
  secret?: boolean
}

export const setting = <T>(options: Setting<T>): Setting<T> => options

/** A variable with a value its schema refuses; the message names it and what it takes. */
export class SettingError extends Error {
  override name = 'SettingError'
}

type Schema = Readonly<Record<string, Setting<unknown>>>
type Value<S extends Schema, N extends keyof S> = z.output<S[N]['schema']>

/** A reader of one schema's variables: each unset or blank one takes its default. */
export function settingsReader<S extends Schema>(settings: S, env: Env) {
  /** The variable's value, or undefined when it is unset and has no default. */
  function read<N extends keyof S & string>(name: N): Value<S, N> | undefined {
    const { schema, expected, default: fallback, secret } = settings[name] as Setting<Value<S, N>>
    const raw = env[name]?.trim() || fallback
    if (raw === undefined) return undefined
    const parsed = schema.safeParse(raw)
    if (!parsed.success) {
      const given = secret === true ? `the ${raw.length} characters given` : `"${raw}"`
      throw new SettingError(`${name} must be ${expected}, not ${given}`)
    }
    return parsed.data
  }
  /** The value of a variable that has a default. */
  function required<N extends keyof S & string>(name: N): Value<S, N> {
    const value = read(name)
    if (value === undefined) throw new SettingError(`${name} has no default`)
    return value
  }
  /** Checks every variable of the schema at once. */
  function checkAll(): void {
    for (const name of Object.keys(settings)) read(name)
  }
  return { read, required, checkAll }
}
