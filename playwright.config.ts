import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './testing/chromium.mjs'

export const OUTBOX_DIR = 'test-results/outbox'

const chromium = { executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS }

export default defineConfig({
  testDir: 'e2e',
  forbidOnly: true,
  // A failed test runs once more, traced, and the run fails all the same (failOnFlakyTests): only
  // a failure pays for a trace. Tracing every test to keep the failed ones' cost a tenth of the
  // suite's CPU, a quarter with the screencast (decision 028), on two cores npm test fills.
  retries: 1,
  failOnFlakyTests: true,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    // Set by the global setup before the workers start (they load this file again).
    baseURL: process.env.E2E_ORIGIN,
    launchOptions: chromium,
    trace: 'on-first-retry',
  },
  projects: [
    {
      name: 'desktop',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: chromium,
      },
    },
    {
      name: 'phone',
      use: {
        ...devices['Pixel 7'],
        viewport: { width: 390, height: 844 },
        launchOptions: chromium,
      },
    },
  ],
  // The production build of this tree (rebuilt first if dist/ is stale), served by the
  // production app with the full-disk seam, on a free port (testing/site.ts).
  globalSetup: './e2e/global-setup.ts',
})
