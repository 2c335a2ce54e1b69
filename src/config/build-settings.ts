/**
 * Every environment variable the build reads, in one schema: its name, what it means, its
 * default and the values it takes. The build reads them here, once, when it starts
 * (pipeline/build.mjs, vite.config.ts); a wrong value stops it with one line naming the variable
 * and the values it accepts. The "Configuration (build time)" table of docs/deploying.md is checked against this schema
 * (build-settings.test.ts). Node only: the page receives the parsed values (build-env.ts),
 * never this module or its schema library.
 */
import { z } from 'zod'
import { DEFAULT_API_ORIGIN, LOCAL_IDS, type MailConfig } from './mail-config.ts'
import { setting, settingsReader, type Env } from './env-settings.ts'
import { DEFAULT_SITE_URL } from './site-facts.ts'

export type { Env }

const serviceId = z.string().regex(/^[\w.-]+$/)
const seconds = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .transform(Number)
    .pipe(z.number().min(min).max(max))
const origin = (protocols: readonly string[]) =>
  z
    .string()
    .refine((text) => URL.canParse(text) && protocols.includes(new URL(text).protocol))
    .transform((text) => new URL(text).origin)
const folder = z.string().regex(/^[\w./-]+$/)

export const BUILD_SETTINGS = {
  VITE_EMAILJS_PUBLIC_KEY: setting({
    description:
      "The e-mail service account key, sent as `user_id`. When unset, the build runs in own-server mode (the contract's local mode): the site's own server takes the demo requests.",
    default: undefined,
    expected: 'letters, digits, _ . and -',
    schema: serviceId,
  }),
  VITE_EMAILJS_SERVICE_ID: setting({
    description: 'Service id. Required when the key is set.',
    default: undefined,
    expected: 'letters, digits, _ . and -',
    schema: serviceId,
  }),
  VITE_EMAILJS_TEMPLATE_ID: setting({
    description: 'Template id. Required when the key is set.',
    default: undefined,
    expected: 'letters, digits, _ . and -',
    schema: serviceId,
  }),
  VITE_EMAILJS_API_ORIGIN: setting({
    description: "Origin of the sending API. It is also allowed by the CSP's `connect-src`.",
    default: DEFAULT_API_ORIGIN,
    expected: 'an http(s) address such as https://api.emailjs.com',
    schema: origin(['https:', 'http:']),
  }),
  VITE_EMAILJS_BLOCK_HEADLESS: setting({
    description:
      "`true` refuses to send from a headless browser (451, 'Unavailable For Headless Browser').",
    default: 'false',
    expected: 'true or false',
    schema: z
      .enum(['true', 'false', '1', '0'])
      .transform((value) => value === 'true' || value === '1'),
  }),
  VITE_DEMO_RATE_LIMIT_SECONDS: setting({
    description:
      "At most one successful request per browser in this many seconds (the SDK's `limitRate`; the own-server page keeps it too).",
    default: '60',
    expected: 'a number of seconds from 0 to 3600',
    schema: seconds(0, 3_600),
  }),
  VITE_DEMO_SEND_TIMEOUT_SECONDS: setting({
    description:
      'How long the page waits for each try; the own-server page tries four times (decision 020) before it says the service did not answer.',
    default: '15',
    expected: 'a number of seconds from 1 to 120',
    schema: seconds(1, 120),
  }),
  SITE_URL: setting({
    description:
      'The public origin, used for canonical URLs, Open Graph, the sitemap and `robots.txt`.',
    default: DEFAULT_SITE_URL,
    expected: 'an absolute http(s) address such as https://gaspre.mx',
    schema: origin(['https:', 'http:']),
  }),
  VITE_GTM_ID: setting({
    description:
      "A Google Tag Manager container (`GTM-XXXXXXX`). A banner asks first; it loads only after 'Aceptar'.",
    default: undefined,
    expected: 'a container id such as GTM-AB12CD3',
    schema: z.string().regex(/^GTM-[A-Z0-9]{4,12}$/),
  }),
  CMS_GIT_HOST: setting({
    description:
      'Ships the content editor at `/admin/`, publishing to this Git host (`github` or `gitlab`). Unset: no editor in the build.',
    default: undefined,
    expected: 'github or gitlab',
    schema: z.enum(['github', 'gitlab']),
  }),
  CMS_REPO: setting({
    description:
      'The repository the editor publishes to (`owner/name`). Required with `CMS_GIT_HOST`.',
    default: undefined,
    expected: 'owner/name',
    schema: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
  }),
  CMS_BRANCH: setting({
    description: 'The branch the editor publishes to; the host builds the site from it.',
    default: 'main',
    expected: 'a branch name',
    schema: z.string().regex(/^[\w./-]+$/),
  }),
  CMS_AUTH_ORIGIN: setting({
    description:
      "Where editors sign in (Decap's `base_url`): an OAuth service for GitHub, the GitLab server for GitLab.",
    default: undefined,
    expected: 'an https address such as https://api.netlify.com',
    schema: origin(['https:']),
  }),
  CF_PAGES: setting({
    description:
      'Set by Cloudflare Pages. The build then stops unless the e-mail service is configured.',
    default: undefined,
    expected: 'any value',
    schema: z.string(),
  }),
  NETLIFY: setting({
    description: 'Set by Netlify. The build then stops unless the e-mail service is configured.',
    default: undefined,
    expected: 'any value',
    schema: z.string(),
  }),
  BUILD_OUT_DIR: setting({
    description: 'Where the static site is written.',
    default: 'dist',
    expected: 'a folder path',
    schema: folder,
  }),
  BUILD_SSR_DIR: setting({
    description: 'Where the page renderer is bundled for the prerender (a second build: its own).',
    default: 'build/ssr',
    expected: 'a folder path',
    schema: folder,
  }),
  BUILD_SERVER_DIR: setting({
    description: 'Where the server is compiled to.',
    default: 'build/server',
    expected: 'a folder path',
    schema: folder,
  }),
  BUILD_SERVER: setting({
    description:
      '`reuse` keeps the compiled server as it is (a second build beside a running one).',
    default: 'compile',
    expected: 'compile or reuse',
    schema: z.enum(['compile', 'reuse']),
  }),
} as const

/** Reads one variable, or its default when it is unset or blank; undefined when both are. */
export const readBuildSetting = <N extends keyof typeof BUILD_SETTINGS>(env: Env, name: N) =>
  settingsReader(BUILD_SETTINGS, env).read(name)

const withDefault = <N extends keyof typeof BUILD_SETTINGS>(env: Env, name: N) =>
  settingsReader(BUILD_SETTINGS, env).required(name)

/** Checks every variable at once, so the build stops before it writes anything. */
export const checkBuildSettings = (env: Env): void => settingsReader(BUILD_SETTINGS, env).checkAll()

export function parseMailConfig(env: Env): MailConfig {
  const shared = {
    // Off by default: a real visitor is never headless, and refusing automated browsers
    // would also refuse the uptime checks and tests that prove the form works.
    blockHeadless: withDefault(env, 'VITE_EMAILJS_BLOCK_HEADLESS'),
    rateLimitMs: withDefault(env, 'VITE_DEMO_RATE_LIMIT_SECONDS') * 1000,
    sendTimeoutMs: withDefault(env, 'VITE_DEMO_SEND_TIMEOUT_SECONDS') * 1000,
  }
  const publicKey = readBuildSetting(env, 'VITE_EMAILJS_PUBLIC_KEY')
  if (publicKey === undefined) {
    return { mode: 'own-server', ...LOCAL_IDS, apiOrigin: null, ...shared }
  }
  const serviceId = readBuildSetting(env, 'VITE_EMAILJS_SERVICE_ID')
  const templateId = readBuildSetting(env, 'VITE_EMAILJS_TEMPLATE_ID')
  const missing = [
    serviceId === undefined && 'VITE_EMAILJS_SERVICE_ID',
    templateId === undefined && 'VITE_EMAILJS_TEMPLATE_ID',
  ].filter(Boolean)
  if (serviceId === undefined || templateId === undefined) {
    throw new Error(
      `VITE_EMAILJS_PUBLIC_KEY is set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not: set all three, or none for own-server mode`,
    )
  }
  return {
    mode: 'email-service',
    publicKey,
    serviceId,
    templateId,
    apiOrigin: withDefault(env, 'VITE_EMAILJS_API_ORIGIN'),
    ...shared,
  }
}

/** Public address of the site, for canonical URLs, the sitemap and link previews. */
export const parseSiteUrl = (env: Env): string => withDefault(env, 'SITE_URL')

/** A Google Tag Manager container id (GTM-XXXXXXX), or null when none is configured. */
export const parseTagManagerId = (env: Env): string | null =>
  readBuildSetting(env, 'VITE_GTM_ID') ?? null

/** Where the editor of a Git host reads, writes and signs in: its API and its pictures. */
const GIT_HOSTS = {
  github: {
    api: ['https://api.github.com'],
    images: ['https://avatars.githubusercontent.com', 'https://raw.githubusercontent.com'],
    // Decap's own GitHub sign-in service; a self-hosted one is set with CMS_AUTH_ORIGIN.
    auth: 'https://api.netlify.com',
  },
  gitlab: {
    api: ['https://gitlab.com'],
    images: ['https://gitlab.com', 'https://secure.gravatar.com'],
    auth: 'https://gitlab.com',
  },
} as const

/** The content editor shipped at /admin/ (CMS_GIT_HOST), or null when the build has none. */
export type ContentEditorConfig = {
  readonly backend: {
    readonly name: keyof typeof GIT_HOSTS
    readonly repo: string
    readonly branch: string
    readonly baseUrl: string
  }
  /** What its own Content-Security-Policy allows it to reach (server/http/security-headers.ts). */
  readonly connectOrigins: readonly string[]
  readonly imageOrigins: readonly string[]
}

export function parseContentEditor(env: Env): ContentEditorConfig | null {
  const name = readBuildSetting(env, 'CMS_GIT_HOST')
  if (name === undefined) return null
  const repo = readBuildSetting(env, 'CMS_REPO')
  if (repo === undefined)
    throw new Error('CMS_GIT_HOST is set but CMS_REPO is not: name the repository (owner/name)')
  const host = GIT_HOSTS[name]
  const baseUrl = readBuildSetting(env, 'CMS_AUTH_ORIGIN') ?? host.auth
  return {
    backend: { name, repo, branch: withDefault(env, 'CMS_BRANCH'), baseUrl },
    connectOrigins: [...new Set([...host.api, baseUrl])],
    imageOrigins: host.images,
  }
}

/** The constants Vite inlines into the page (see build-env.ts). */
export function buildConstants(env: Env): Record<string, string> {
  checkBuildSettings(env)
  return {
    __MAIL_CONFIG__: JSON.stringify(parseMailConfig(env)),
    // Its own constant, so the build drops the sender (and the SDK) the mode does not use.
    __OWN_SERVER__: JSON.stringify(parseMailConfig(env).mode === 'own-server'),
    __TAG_MANAGER_ID__: JSON.stringify(parseTagManagerId(env)),
  }
}
