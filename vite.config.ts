import react from '@vitejs/plugin-react'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { defineConfig, loadEnv } from 'vite'
import { minifiedInlineScripts } from './pipeline/inline-scripts.ts'
import { content } from './pipeline/loader/plugin.ts'
import { buildConstants } from './src/config/build-settings.ts'
import { inlineDesignTokens, parseTokens } from './src/config/token-values.ts'

export default defineConfig(({ command, mode, isSsrBuild }) => ({
  // content() reads and checks content/ (pipeline/loader/plugin.ts).
  plugins: [content(), minifiedInlineScripts(), react()],
  // The shipped CSS carries the tokens' values, not var(): the browser restyles faster
  // (src/config/token-values.ts). The dev server keeps var() for trying a token out live.
  css:
    command === 'build'
      ? {
          postcss: {
            plugins: [
              inlineDesignTokens(
                parseTokens(
                  readFileSync(resolve(import.meta.dirname, 'src/styles/tokens.css'), 'utf8'),
                ),
              ),
            ],
          },
        }
      : {},
  // Parsing here refuses a half-configured build before anything ships.
  define: buildConstants({ ...loadEnv(mode, process.cwd(), ''), ...process.env }),
  build: isSsrBuild
    ? {
        // The prerender render sees every section, so its one stylesheet is the site's CSS
        // (pipeline/prerender.mjs inlines it into each page).
        ssrEmitAssets: true,
        cssCodeSplit: false,
        // This build writes the HTML, and every picture stays a file of its own, which
        // pipeline/prerender.mjs copies into dist/assets/: the pictures below the first screen
        // are requested after its paint anyway (decision 031), and the whole HTML then fits in
        // a new connection's first round trip, whatever pictures content/ holds (decision 032).
        assetsInlineLimit: 0,
      }
    : {
        // The supported browsers (docs/developing.md). Vite lowers newer syntax and prefixes CSS for
        // them; it adds no polyfills, so a newer API needs a guard in the code.
        target: ['chrome111', 'edge111', 'firefox114', 'safari16.4', 'ios16.4'],
        // The islands name each picture by the same file as the HTML (the name is its content's
        // hash), and carry no picture themselves.
        assetsInlineLimit: 0,
        modulePreload: { polyfill: false },
        // One stylesheet linked from the HTML (which prerender replaces with the inline CSS), so
        // the islands loaded after the first paint never fetch CSS of their own.
        cssCodeSplit: false,
        rollupOptions: {
          input: {
            home: resolve(import.meta.dirname, 'index.html'),
            terms: resolve(import.meta.dirname, 'tyc.html'),
          },
          // Reading our own content objects has no side effects; without this, template strings
          // built from them stay in bundles that never use them.
          treeshake: { propertyReadSideEffects: false, unknownGlobalSideEffects: false },
          output: {
            // A readable name for the SDK chunk that loads only when a visitor starts the form.
            chunkFileNames: (chunk) =>
              chunk.moduleIds.some((id) => id.includes('@emailjs/browser'))
                ? 'assets/email-sdk-[hash].js'
                : 'assets/[name]-[hash].js',
          },
        },
      },
}))
