// The two pages, rendered on each request by the module the build prerenders with
// (src/prerender.tsx, through Vite's ssrLoadModule), with the stylesheets they import inline and
// the development policy; a page that cannot be rendered shows Vite's error overlay instead.
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { EnvironmentModuleNode, Plugin, ViteDevServer } from 'vite'
import { securityHeaders, type SiteBuild } from '../../server/http/index.ts'

const RENDERER = '/src/prerender.tsx'

interface RenderedPage {
  path: string
  template: string
  head: string
  html: string
}

interface Renderer {
  renderPages(env: NodeJS.ProcessEnv): RenderedPage[]
  describeBuild(
    env: NodeJS.ProcessEnv,
    hashes: string[],
  ): Omit<SiteBuild, 'editor'> & {
    editor: SiteBuild['editor'] | undefined
  }
}

/**
 * A change to a module the server renders outside the islands (a static section, the page
 * layout, copy they show) cannot be hot-swapped: the browser has no module to replace, so the
 * page reloads and is rendered again. Island components and their CSS keep React's hot refresh,
 * plain CSS Vite's hot swap.
 */
export function reloadServerRenderedChanges(): Plugin {
  return {
    name: 'gaspre:reload-server-rendered-changes',
    hotUpdate({ file, server }) {
      if (this.environment.name !== 'client') return undefined
      const ssrModules = server.environments.ssr.moduleGraph.getModulesByFile(file)
      if (!ssrModules?.size || (file.endsWith('.css') && !file.endsWith('.module.css')))
        return undefined
      const client = server.environments.client.moduleGraph
      const seen = new Set<EnvironmentModuleNode>()
      const pending = [...ssrModules]
      while (pending.length > 0) {
        const module = pending.pop()!
        if (seen.has(module) || module.url === RENDERER) continue
        seen.add(module)
        if (!module.file || !client.getModulesByFile(module.file)?.size) {
          this.environment.hot.send({ type: 'full-reload' })
          return []
        }
        pending.push(...module.importers)
      }
      return undefined
    },
  }
}

/**
 * What the build would say of itself (dist/.site.json), described from the sources; no hashes,
 * as the development policy allows inline code.
 */
export async function describeLiveBuild(vite: ViteDevServer): Promise<SiteBuild> {
  const { describeBuild } = (await vite.ssrLoadModule(RENDERER)) as Renderer
  const build = describeBuild(process.env, [])
  return { ...build, editor: build.editor ?? null, scriptHashes: [], styleHashes: [] }
}

/**
 * The production policy of this configuration, with inline code allowed: Vite injects styles
 * and the React refresh preamble inline and changes them on every edit, so no hash can cover
 * them. The hot-update socket runs on this server. Its error page (Vite's overlay) runs under
 * it too.
 */
export function developmentPolicy(build: SiteBuild, origin: string): string {
  const policy = securityHeaders(build)['content-security-policy']!
  return policy
    .replace(/(script-src|style-src) 'self'/g, "$1 'self' 'unsafe-inline'")
    .replace(/connect-src 'self'/, `connect-src 'self' ${origin.replace(/^http/, 'ws')}`)
}

/**
 * Every stylesheet the server render imported, inline and tagged with its module id, so the page
 * paints styled. Vite's client adopts these tags when an island imports the same module and swaps
 * their text on a change. Plain stylesheets are imported here so they are hot too; CSS modules of
 * static sections are not (they would end Vite's update search without a boundary): a change to
 * one reloads the page (reloadServerRenderedChanges).
 */
async function serverRenderedStyles(vite: ViteDevServer): Promise<string> {
  const styleIds = [...vite.environments.ssr.moduleGraph.idToModuleMap.keys()].filter((id) =>
    /\.css$/.test(id),
  )
  const tags = []
  for (const id of styleIds) {
    // Compiled on the server side: a client request for the text (?direct) would add a module
    // that no update can reach, and Vite would reload the page on every change to it.
    const { default: css } = (await vite.ssrLoadModule(`/@fs${id}?inline`)) as { default: string }
    tags.push(`<style data-vite-dev-id="${id}">${css}</style>`)
  }
  const imports = styleIds
    .filter((id) => !id.endsWith('.module.css'))
    .map((id) => `import ${JSON.stringify(`/@fs${id}`)}`)
    .join(';')
  return `${tags.join('\n')}\n<script type="module">${imports}</script>`
}

/**
 * The page the serving rules name by its build's file (`/index.html`, `/tyc.html`:
 * server/http/request-path.ts) as HTML, or null when there is none.
 */
export async function renderPage(
  vite: ViteDevServer,
  root: string,
  file: string,
): Promise<string | null> {
  const { renderPages } = (await vite.ssrLoadModule(RENDERER)) as Renderer
  const page = renderPages(process.env).find((candidate) => `/${candidate.template}` === file)
  if (page === undefined) return null
  const template = await vite.transformIndexHtml(
    page.path,
    await readFile(resolve(root, page.template), 'utf8'),
  )
  const styles = await serverRenderedStyles(vite)
  return template
    .replace('<!--head-->', () => `${page.head}\n${styles}`)
    .replace('<!--app-->', () => page.html)
}

/**
 * The answer to a page that could not be rendered: Vite's error overlay, and its client, so the
 * page reloads by itself once the file is fixed. A content file's error is a sentence for the
 * person who edits it (pipeline/loader/content-error.ts): it is shown alone, without a stack.
 */
export function renderErrorPage(vite: ViteDevServer, error: Error & { plugin?: string }): string {
  const message = error.plugin === 'content' ? error.message : String(error.stack)
  vite.ssrFixStacktrace(error)
  console.error(error.plugin === 'content' ? message : error)
  const overlay = JSON.stringify({ message, stack: '' }).replace(/</g, '\\u003c')
  // For a content file, Vite's tip about its own configuration is replaced by what the person
  // who edits the file does next.
  const tip =
    error.plugin === 'content'
      ? 'overlay.shadowRoot?.querySelector(".tip")?.replaceChildren("Corrige el archivo y guárdalo: esta página se recarga sola.");'
      : ''
  return (
    '<!doctype html><html lang="es"><meta charset="utf-8"><title>Error</title>' +
    '<script type="module">import { ErrorOverlay } from "/@vite/client";' +
    `const overlay = new ErrorOverlay(${overlay}); document.body.append(overlay); ${tip}</script>`
  )
}
