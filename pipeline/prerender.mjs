// Writes the prerendered pages and the files search engines and servers read into dist/.
import { copyFile, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>\s*/g
// The page paints from its HTML; its scripts only hydrate the islands and enhance the markup, so
// they must not compete with the HTML for the first paint: they are put in a template, which the
// browser neither fetches nor runs, and src/islands/load-after-first-paint.js (inlined in the
// head) adds them once the first frame has painted. Low priority still: the rest of the HTML may
// be arriving then.
const SCRIPT_TAGS = /\s*<(?:script type="module"[^>]*><\/script>|link rel="modulepreload"[^>]*>)/g
const AFTER_FIRST_PAINT = 'template data-after-first-paint'

/** The page's scripts, moved into one template at the place of the first. */
function scriptsAfterFirstPaint(html) {
  const tags = [...html.matchAll(SCRIPT_TAGS)].map(([tag]) =>
    tag
      .trim()
      .replace(/^<(script type="module"|link rel="modulepreload")/, '<$1 fetchpriority="low"'),
  )
  if (tags.length === 0) return html
  let first = true
  return html.replace(SCRIPT_TAGS, (tag) => {
    if (!first) return ''
    first = false
    const indent = /^\s*/.exec(tag)[0]
    return `${indent}<${AFTER_FIRST_PAINT}>${tags.join('')}</template>`
  })
}

/**
 * The pictures the HTML names (the clients' logos, the carousel's slides), as the server render
 * emitted them. The client build emits those its islands name too, under the same names, since a
 * name is its content's hash.
 */
async function copyPictures(ssrDir, distDir) {
  const files = await readdir(join(ssrDir, 'assets'))
  for (const file of files.filter((name) => !/\.(css|js|map)$/.test(name)))
    await copyFile(join(ssrDir, 'assets', file), join(distDir, 'assets', file))
}

/**
 * The server render's stylesheet covers every section, hydrated or not, so it is the site's
 * CSS. It is small, so each page carries it inline (allowed by its CSP hash) and paints from
 * the HTML alone; the client build's partial stylesheets are dropped.
 */
async function siteStylesheet(ssrDir) {
  const files = (await readdir(join(ssrDir, 'assets'))).filter((file) => file.endsWith('.css'))
  if (files.length !== 1)
    throw new Error(`Expected one stylesheet from the server render, found ${files.length}`)
  return (await readFile(join(ssrDir, 'assets', files[0]), 'utf8')).trim()
}

export async function prerender({ distDir, ssrDir, env }) {
  const { renderPages, renderNotFoundPage, describeBuild, sharedFiles } = await import(
    pathToFileURL(resolve(ssrDir, 'prerender.js')).href
  )
  const css = await siteStylesheet(ssrDir)
  const clientStylesheets = new Set()

  for (const page of renderPages(env)) {
    const file = join(distDir, page.template)
    const template = await readFile(file, 'utf8')
    if (!template.includes('<!--head-->') || !template.includes('<!--app-->')) {
      throw new Error(`${file} has no <!--head--> or <!--app--> placeholder`)
    }
    const html = scriptsAfterFirstPaint(
      template.replace(STYLESHEET_LINK, (_, href) => {
        clientStylesheets.add(href)
        return ''
      }),
    )
      .replace('<!--head-->', () => `${page.head}\n    <style>${css}</style>`)
      .replace('<!--app-->', () => page.html)
    await writeFile(file, html)
  }
  for (const href of clientStylesheets) await rm(join(distDir, href))
  await copyPictures(ssrDir, distDir)

  // The servers read these facts; the page list also tells check-html what to check.
  const { siteUrl, ...serverFacts } = describeBuild(env, [css])
  await writeFile(join(distDir, '.site.json'), `${JSON.stringify(serverFacts, null, 2)}\n`)
  await writeFile(
    join(distDir, 'robots.txt'),
    `User-agent: *\nAllow: /\n\nSitemap: ${siteUrl}/sitemap.xml\n`,
  )
  const today = new Date().toISOString().slice(0, 10)
  const urls = serverFacts.pages
    .map(({ path }) => `  <url><loc>${siteUrl}${path}</loc><lastmod>${today}</lastmod></url>`)
    .join('\n')
  await writeFile(
    join(distDir, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
  )
  for (const { source, path } of sharedFiles()) await copyFile(source, join(distDir, path))
  const notFound = renderNotFoundPage()
  await writeFile(join(distDir, notFound.file), notFound.html)
}
