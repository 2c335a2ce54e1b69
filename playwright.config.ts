import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './testing/chromium.mjs'

const PORT = Number(process.env.E2E_PORT ?? 4173)
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
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: chromium,
    trace: 'retain-on-failure',
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
  // production app with the local sending stand-in (testing/serve-for-tests.mjs).
  webServer: {
    command: 'node testing/serve-for-tests.mjs',
    url: `http://127.0.0.1:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 300_000,
    // Every test sends from 127.0.0.1: lift the rate limits (the server tests check them).
    env: {
      PORT: String(PORT),
      DATA_DIR: OUTBOX_DIR,
      DEMO_RATE_LIMIT_PER_MINUTE: '100000',
      DEMO_TOTAL_LIMIT_PER_MINUTE: '100000',
    },
  },
})
