import { readFileSync } from 'node:fs'
import { minifySync, type Plugin } from 'vite'

/** The scripts each page carries inline in its <head>, imported as text (`…/islands/x.js?raw`). */
const INLINE_SCRIPT = /\/src\/islands\/[^/?]+\.js\?raw$/

/**
 * The inline scripts ship without their comments and spaces. They are written to be read, and
 * every byte of them is in the page's first round trip, before the headline (decision 032). The
 * pages' CSP hashes are computed from what ships (src/prerender.tsx).
 */
export function minifiedInlineScripts(): Plugin {
  return {
    name: 'minified-inline-scripts',
    enforce: 'pre',
    load(id) {
      if (!INLINE_SCRIPT.test(id)) return null
      const file = id.slice(0, id.indexOf('?'))
      this.addWatchFile(file)
      const { code, errors } = minifySync(file, readFileSync(file, 'utf8'))
      if (errors.length > 0) throw new Error(`${file}: ${errors[0]!.message}`)
      return `export default ${JSON.stringify(code.trim())}`
    },
  }
}
