import react from '@vitejs/plugin-react'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildConstants } from '../../src/config/build-settings.ts'
import { REPO_ROOT } from '../../testing/site.js'
import { contentProblems } from './check.ts'
import { content } from './plugin.ts'
import { CONTENT_DIR } from './read.ts'

/**
 * Content written to attack the page (a script, an event handler, a javascript: link, an SVG
 * that runs code) goes through the real server render of both pages, as the build makes them:
 * what reaches the HTML is text, never markup that runs.
 */
const HOSTILE_TITLE = '<script>alert(1)</script> Precios'
const HOSTILE_NAME = '<img src=x onerror=alert(2)>'
const HOSTILE_PROSE =
  'Antes <script>alert(3)</script> <img src=x onerror=alert(4)> [pulsa](javascript:alert(5)) después.'
const HOSTILE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80" viewBox="0 0 200 80" onload="alert(6)"><script>alert(7)</script><image href="https://evil.example/x.png" width="9" height="9"/><rect width="200" height="80" fill="#0b1f3a"/></svg>`

/** The copies made, removed once the file's tests are done. */
const copies: string[] = []
afterAll(() => {
  for (const folder of copies) rmSync(folder, { recursive: true, force: true })
})

/** A copy of content/ with one edit; the edit must apply. */
function editedCopy(edits: [file: string, from: string | RegExp, to: string][]) {
  const folder = mkdtempSync(join(tmpdir(), 'contenido-hostil-'))
  copies.push(folder)
  cpSync(CONTENT_DIR, folder, { recursive: true })
  for (const [file, from, to] of edits) {
    const path = join(folder, file)
    const text = readFileSync(path, 'utf8')
    const changed = text.replace(from, to)
    expect(changed, `the edit applies to ${file}`).not.toBe(text)
    writeFileSync(path, changed)
  }
  return folder
}

type RenderedPage = { id: string; html: string }
let pages: RenderedPage[] = []
/** Where the server render wrote its files, the pictures among them (as the build's own). */
let renderDir = ''

beforeAll(async () => {
  const folder = editedCopy([
    ['inicio.yml', /\n {2}title: Sistema de inteligencia[^\n]*/, `\n  title: '${HOSTILE_TITLE}'`],
    ['inicio.yml', 'name: Grupo Altamar', `name: '${HOSTILE_NAME}'`],
    ['terminos.md', /\n\nEstos Términos y Condiciones regulan[^\n]*/, `\n\n${HOSTILE_PROSE}`],
  ])
  writeFileSync(join(folder, 'imagenes', 'clientes', 'grupo-altamar.svg'), HOSTILE_SVG)
  expect(await contentProblems(folder)).toEqual([])
  const outDir = mkdtempSync(join(tmpdir(), 'render-hostil-'))
  await build({
    configFile: false,
    root: REPO_ROOT,
    logLevel: 'silent',
    plugins: [content({ directory: folder }), react()],
    define: buildConstants({}),
    build: { ssr: 'src/prerender.tsx', outDir, ssrEmitAssets: true, assetsInlineLimit: 0 },
  })
  renderDir = outDir
  const render = await import(pathToFileURL(join(outDir, 'prerender.js')).href)
  pages = render.renderPages({})
})

/** Every element's opening tag in the HTML, so text that looks like a tag is not counted. */
const tags = (html: string) =>
  [...html.matchAll(/<[a-zA-Z](?:[^>"']|"[^"]*"|'[^']*')*>/g)].map((match) => match[0])

/** The names of a tag's attributes, read past their quoted values. */
const attributeNames = (tag: string) =>
  [...tag.matchAll(/\s([^\s=>/]+)(?:=(?:"[^"]*"|'[^']*'|[^\s>]+))?/g)].map((match) => match[1]!)

const handlers = (html: string) =>
  tags(html).flatMap((tag) => attributeNames(tag).filter((name) => /^on/i.test(name)))

describe('content that tries to run code in the page', () => {
  it('shows a <script> and an onerror= written in YAML as text', () => {
    const home = pages.find((page) => page.id === 'home')!.html
    expect(home).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Precios')
    expect(home).toContain('alt="&lt;img src=x onerror=alert(2)&gt;"')
    expect(
      tags(home).filter((tag) => /^<script\b(?! type="application\/ld\+json")/.test(tag)),
    ).toEqual([])
    expect(handlers(home)).toEqual([])
  })

  it('shows HTML and a javascript: link written in Markdown as text', () => {
    const terms = pages.find((page) => page.id === 'terms')!.html
    expect(terms).toContain(
      'Antes &lt;script&gt;alert(3)&lt;/script&gt; &lt;img src=x onerror=alert(4)&gt; [pulsa](javascript:alert(5)) después.',
    )
    expect(tags(terms).filter((tag) => /^<script|javascript:/i.test(tag))).toEqual([])
    expect(handlers(terms)).toEqual([])
  })

  it('puts an SVG logo in the page without its script, handler or outside reference', () => {
    const home = pages.find((page) => page.id === 'home')!.html
    const logo = /<img src="\/(assets\/[^"]+\.svg)"[^>]*alt="&lt;img src=x/.exec(home)?.[1]
    expect(logo).toBeDefined()
    const svg = readFileSync(join(renderDir, logo!), 'utf8')
    expect(svg).toContain('#0b1f3a')
    expect(svg).not.toMatch(/script|onload|evil\.example/i)
  })

  it('refuses a javascript: link in YAML before anything is built', async () => {
    const folder = editedCopy([
      ['sitio.yml', 'href: https://www.facebook.com/gaspre.mx', 'href: javascript:alert(8)'],
    ])
    const [problem] = await contentProblems(folder)
    expect(problem?.message).toMatch(
      /^content\/sitio\.yml, línea \d+, social\[1\]\.href: «Dirección del perfil» no es un enlace permitido/,
    )
  })
})
