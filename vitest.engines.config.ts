import { defineConfig } from 'vitest/config'

// The visitor journeys in Chromium, Firefox and WebKit (engines/): one file per engine, run side
// by side, each driving its own browser against one production server.
export default defineConfig({
  test: {
    name: 'engines',
    environment: 'node',
    include: ['engines/*.test.ts'],
    globalSetup: ['engines/site-server.ts'],
    pool: 'forks',
    maxWorkers: Number(process.env.ENGINES_WORKERS ?? 3),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './engines/count-reporter.ts'],
  },
})
