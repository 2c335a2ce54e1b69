// Reads the build description (dist/.site.json) that the front-end build writes, and checks
// every value before it reaches a response header: a stray quote, semicolon or newline in a
// CSP source would otherwise break or widen the policy.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'

const SITE_BUILD_FILE = '.site.json'

export class SiteBuildError extends Error {
  override name = 'SiteBuildError'
}

const HASH_SOURCE = /^'sha(256|384|512)-[A-Za-z0-9+/]+={0,2}'$/

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname)
}

/**
 * An origin such as https://api.emailjs.com: https only (http just for loopback, in tests).
 * @internal its tests use it too
 */
export function isOrigin(value: unknown): value is string {
  if (typeof value !== 'string') return false
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))
  return secure && url.origin === value
}

const show = (value: unknown): string => JSON.stringify(value)

/** A string `valid` accepts; any other value is refused with `what` it should have been. */
const entry = (valid: (value: string) => boolean, what: string) =>
  z.custom<string>((value) => typeof value === 'string' && valid(value), {
    error: ({ input }) =>
      input === undefined ? `is missing: ${what}` : `holds ${show(input)}, which is not ${what}`,
  })

/** A list of such strings; missing or null is an empty list. */
const listOf = (valid: (value: string) => boolean, what: string, plural: string) =>
  z
    .array(entry(valid, what), { error: `must be an array of ${plural}` })
    .nullish()
    .transform((items) => items ?? [])

const hashSources = listOf(
  (value) => HASH_SOURCE.test(value),
  "a CSP hash source like 'sha256-…'",
  "CSP hash sources like 'sha256-…'",
)
const origins = listOf(isOrigin, 'an https origin', 'https origins')

/** The content editor at /admin/, when the build ships one: what its own policy allows. */
const EDITOR = z.object(
  { connectOrigins: origins, imageOrigins: origins },
  { error: 'must be an object or null' },
)

const text = z.string({ error: 'must be a text' }).check(z.minLength(1, 'must not be empty'))
/** The form's messages (content/formulario.yml) that our own door answers with. */
const FORM_MESSAGES = z.object(
  {
    required: z.object({ user_name: text, user_email: text, user_phone: text, user_group: text }),
    email: text,
    phone: text,
    tooLong: text,
  },
  { error: 'must be an object or null' },
)

/** An object of the named texts, each one there and not empty. */
const textsNamed = <Key extends string>(keys: readonly Key[]) =>
  z.object(Object.fromEntries(keys.map((key) => [key, text])) as Record<Key, typeof text>, {
    error: 'must be an object',
  })

/**
 * What the booking's page without JavaScript and its answers say (content/formulario.yml,
 * `bookingPage` and `bookingAnswers`); `{name}` marks where the server puts a value.
 */
const BOOKING_TEXTS = z.object(
  {
    page: textsNamed([
      'title',
      'sentTitle',
      'sentLead',
      'lead',
      'zone',
      'choose',
      'change',
      'changeHeading',
      'noTimes',
      'meetingTitle',
      'meeting',
      'room',
      'roomNote',
      'cancel',
      'cancelledTitle',
      'cancelled',
      'unknownTitle',
      'unavailableTitle',
      'home',
    ]),
    answers: textsNamed([
      'unknown',
      'unavailable',
      'taken',
      'notOffered',
      'malformed',
      'crossSite',
    ]),
  },
  { error: 'must be an object or null' },
)

export type BookingTexts = z.output<typeof BOOKING_TEXTS>

/** What dist/.site.json says to the server (src/prerender.tsx writes it). */
const SITE_BUILD = z
  .object(
    {
      /** 'own-server' when the site was built without an e-mail service key: its own server takes the requests (the contract's local mode). */
      mode: z.enum(['own-server', 'email-service'], {
        error: ({ input }) =>
          `must be "own-server" or "email-service", not ${input === undefined ? 'missing' : show(input)}`,
      }),
      /** Origin of the sending API in email-service mode (e.g. https://api.emailjs.com); else null. */
      apiOrigin: z
        .custom<string>(isOrigin, {
          error: ({ input }) => `${show(input)} is not an https origin`,
        })
        .nullish()
        .transform((origin) => origin ?? null),
      /** CSP hash sources ('sha256-…') for inline scripts in the prerendered HTML. */
      scriptHashes: hashSources,
      /** CSP hash sources for inline styles. */
      styleHashes: hashSources,
      frameOrigins: origins,
      scriptOrigins: origins,
      connectOrigins: origins,
      editor: EDITOR.nullish().transform((editor) => editor ?? null),
      /** Own-server builds: the messages our own door refuses a field with; absent before it. */
      formMessages: FORM_MESSAGES.nullish().transform((messages) => messages ?? null),
      /** Own-server builds: the booking's words; absent before the booking. */
      bookingTexts: BOOKING_TEXTS.nullish().transform((texts) => texts ?? null),
    },
    { error: 'the build description must be a JSON object' },
  )
  .refine((build) => build.mode === 'own-server' || build.apiOrigin !== null, {
    path: ['apiOrigin'],
    error: 'is required in email-service mode',
  })

export type SiteBuild = z.output<typeof SITE_BUILD>
export type EditorOrigins = z.output<typeof EDITOR>

const PAGE_PATH = /^\/[a-z0-9-]*$/
const PAGE_FILE = /^[a-z0-9-]+(\/[a-z0-9-]+)*\.html$/

/**
 * The pages in .site.json (src/config/site-facts.ts, written by the prerender). Addresses and file
 * names are checked because postbuild writes them into the static hosts' redirect rules.
 */
const SITE_PAGES = z.object(
  {
    pages: z
      .array(
        z.object({
          path: entry((path) => PAGE_PATH.test(path), 'an address like /tyc'),
          file: entry((file) => PAGE_FILE.test(file), 'a file name like tyc.html'),
        }),
        { error: 'must list the pages the build wrote' },
      )
      .min(1, { error: 'must list the pages the build wrote' }),
  },
  { error: 'the build description must be a JSON object' },
)

/** A page the build wrote: its address and its file below dist/. */
export type SitePage = z.output<typeof SITE_PAGES>['pages'][number]

/**
 * Checks a parsed value against a schema; throws SiteBuildError naming the first bad field
 * (`scriptOrigins[2] holds …`), so an operator knows which line of the file to look at.
 */
function parse<T>(schema: z.ZodType<T>, raw: unknown): T {
  const result = schema.safeParse(raw)
  if (result.success) return result.data
  const [issue] = result.error.issues
  const where = (issue?.path ?? []).reduce<string>(
    (text, key) =>
      typeof key === 'number' ? `${text}[${key}]` : `${text}${text ? '.' : ''}${String(key)}`,
    '',
  )
  throw new SiteBuildError(`${where} ${issue?.message ?? 'is not what the build writes'}`.trim())
}

/**
 * Validates a parsed .site.json; throws SiteBuildError naming the first bad field.
 * @internal its tests use it too
 */
export function parseSiteBuild(raw: unknown): SiteBuild {
  return parse(SITE_BUILD, raw)
}

/**
 * The pages of a parsed .site.json.
 * @internal its tests use it too
 */
export function parseSitePages(raw: unknown): SitePage[] {
  return parse(SITE_PAGES, raw).pages
}

/** Reads and parses <distDir>/.site.json; the message says what to do when it is missing. */
function readSiteFacts<T>(distDir: string, parse: (raw: unknown) => T): T {
  if (!existsSync(distDir) || !statSync(distDir).isDirectory()) {
    throw new SiteBuildError(`No site build at ${distDir}. Run npm run build first.`)
  }
  const file = join(distDir, SITE_BUILD_FILE)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw new SiteBuildError(
      `${file} is missing: the build did not finish. Run npm run build first.`,
    )
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    throw new SiteBuildError(`${file} is not valid JSON. Run npm run build first.`)
  }
  try {
    return parse(raw)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new SiteBuildError(`${file}: ${reason}`)
  }
}

/** Reads <distDir>/.site.json; the message says what to do when the build is missing. */
export function readSiteBuild(distDir: string): SiteBuild {
  return readSiteFacts(distDir, parseSiteBuild)
}

/** The pages <distDir>/.site.json lists. */
export function readSitePages(distDir: string): SitePage[] {
  return readSiteFacts(distDir, parseSitePages)
}
