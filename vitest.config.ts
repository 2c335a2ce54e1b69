import react from '@vitejs/plugin-react'
import { readdirSync, readFileSync } from 'node:fs'
import { configDefaults, defineConfig } from 'vitest/config'
import { content } from './pipeline/loader/plugin.ts'
import { buildConstants } from './src/config/build-settings.ts'

/**
 * The Node test files that start another program (the built server, its command line, nginx,
 * Cloudflare's runtime, PostgreSQL, an SMTP server), build the site, or write all of Unicode
 * into a spreadsheet: seconds each, so `npm run check` leaves them to `npm test`. A new file
 * that starts one belongs here.
 */
const STARTS_PROGRAMS = [
  'pipeline/build.test.ts',
  'pipeline/loader/hostile-content.test.ts',
  'server/delivery/channel-faults.test.ts',
  'server/store/data-dir.test.ts',
  'server/delivery/delivery-process.test.ts',
  'server/delivery/delivery.test.ts',
  'server/intake/floods.test.ts',
  'server/intake/held-requests.test.ts',
  'server/privacy/lead-privacy.test.ts',
  'server/store/sqlite-connections.test.ts',
  'server/store/lead-store.test.ts',
  'server/store/queue-upgrade.test.ts',
  'server/http/nginx-node.test.ts',
  'server/http/nginx.test.ts',
  'server/cli/outbox.test.ts',
  'server/privacy/outbox-privacy.test.ts',
  'server/http/pages.test.ts',
  'server/process.test.ts',
  'server/production-install.test.ts',
  'server/privacy/retention.test.ts',
  'server/cli/spreadsheet-text.test.ts',
  'server/intake/intake.test.ts',
  'server/intake/door.test.ts',
  'server/channels/whatsapp/whatsapp.test.ts',
  'server/http/static-hosts.test.ts',
  'server/alert-rules.test.ts',
  'server/alert-rules-prometheus.test.ts',
  'server/calendar/calendar-reader.test.ts',
  'server/booking/booking.test.ts',
]

/**
 * The process tests that depend on the Node line they run on (the native SQLite addon, the
 * production install, the server's start): npm test runs these on the machine's own Node as
 * well as on the LTS line, where every process test runs (testing/server-tests-on-lts.mjs).
 */
const NODE_LINE_TESTS = [
  'server/process.test.ts',
  'server/production-install.test.ts',
  'server/store/lead-store.test.ts',
  'server/store/sqlite-connections.test.ts',
]

const webTests = {
  environment: 'jsdom',
  include: ['src/**/*.test.{ts,tsx}'],
  setupFiles: ['src/test-setup.ts'],
  // The build reads the design tokens' text (config/design-tokens.ts); other CSS is left out of
  // unit tests.
  css: { include: [/styles\/tokens\.css/] },
  // Typing through user-event in jsdom is slow on a busy machine; a ceiling, not a timing.
  testTimeout: 20_000,
}

/** The page's test files that replace a module (vi.mock): each needs a module graph of its own. */
const REPLACE_MODULES = readdirSync(new URL('src', import.meta.url), { recursive: true })
  .map((file) => `src/${String(file)}`)
  .filter((file) => /\.test\.tsx?$/.test(file))
  .filter((file) => /\bvi\.(do)?mock\(/.test(readFileSync(new URL(file, import.meta.url), 'utf8')))

const nodeTests = {
  environment: 'node',
  include: [
    'server/**/*.test.ts',
    'pipeline/**/*.test.ts',
    'editor/**/*.test.ts',
    'scripts/**/*.test.ts',
    'testing/**/*.test.ts',
  ],
  globalSetup: ['testing/server/node-version.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  fileParallelism: false,
}

const processTests = {
  ...nodeTests,
  // One throwaway PostgreSQL for the run (each test takes a fresh database in it), and the
  // server compiled once for every file that runs it.
  globalSetup: [
    ...nodeTests.globalSetup,
    'testing/server/postgres.ts',
    'testing/server/compile-once.ts',
  ],
  // Most of their time is spent waiting on another program (a deadline, a retry, a start): two
  // files at once used half a core on average (192 CPU seconds in 364 s on the LTS line), so
  // three fit beside the browsers' lane on two cores (decision 028).
  fileParallelism: true,
  maxWorkers: 3,
}

export default defineConfig({
  plugins: [content(), react()],
  // Unit tests run against a local-mode build.
  define: buildConstants({}),
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          ...webTests,
          exclude: [...configDefaults.exclude, ...REPLACE_MODULES],
          // One module graph and one jsdom per worker, not per file: a fifth of the time.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'web-mocks', ...webTests, include: REPLACE_MODULES },
      },
      {
        test: {
          name: 'server',
          ...nodeTests,
          // In the test process only: the quick loop (npm run check) runs these with 'web'.
          exclude: [...configDefaults.exclude, ...STARTS_PROGRAMS],
        },
      },
      {
        test: {
          name: 'processes',
          ...processTests,
          include: STARTS_PROGRAMS,
        },
      },
      {
        test: {
          name: 'node-line',
          ...processTests,
          include: NODE_LINE_TESTS,
        },
      },
    ],
  },
})
