import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'
import { content } from './pipeline/content/plugin.ts'
import { buildConstants } from './src/config/build-settings.ts'

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
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test-setup.ts'],
          // The build reads the design tokens' text (config/design-tokens.ts); other CSS is
          // left out of unit tests.
          css: { include: [/styles\/tokens\.css/] },
          // Typing through user-event in jsdom is slow on a busy machine; a ceiling, not a timing.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'pipeline/**/*.test.ts', 'testing/**/*.test.ts'],
          globalSetup: ['testing/server/node-version.ts', 'testing/server/postgres.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
