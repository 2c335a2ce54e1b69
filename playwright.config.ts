import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './testing/chromium.mjs'

export const OUTBOX_DIR = 'test-results/outbox'

const chromium = { executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS }

export default defineConfig({
  testDir: 'e2e',
  forbidOnly: true,
  retries: 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    // Set by the global setup before the workers start (they load this file again).
    baseURL: process.env.E2E_ORIGIN,
    launchOptions: chromium,
    // A failed test keeps its trace: actions, DOM snapshots, network, console. Not its screencast:
    // encoding frames for every test, to keep the failed ones', cost a quarter of the suite's CPU
    // (87 against 67 CPU seconds for three specs), on a machine whose two cores npm test fills.
    trace: { mode: 'retain-on-failure', screenshots: false },
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
