import { renderToStaticMarkup } from 'react-dom/server'
import head from '../content/inicio.yml?field=head'
import hero from '../content/inicio.yml?field=hero'
import heroActions from '../content/inicio.yml?field=heroActions'
import heroBoard from '../content/inicio.yml?field=heroBoard'
import pillars from '../content/inicio.yml?field=pillars'
import videoSection from '../content/inicio.yml?field=videoSection'
import globalStyles from '../src/styles/global.css?inline'
import { Clients } from '../src/sections/clients'
import { Hero } from '../src/sections/hero'
import { Pillars } from '../src/sections/pillars'
import { VideoSection } from '../src/sections/video-section'
import { clients } from '../src/copy/clients'

/**
 * The preview beside the home page's form (npm run cms): the sections as the site renders them,
 * with the site's own components and CSS, filled with what is typed, before anything is
 * published. The editor's copy of the content modules takes the draft's values: this page is
 * the editor's, never the site's.
 */

type Value = string | number | boolean | null | undefined | Value[] | { [key: string]: Value }
type Draft = { [field: string]: Value }

/** The page's modules for each field of inicio.yml the preview shows. */
const modules: Record<string, unknown> = {
  head,
  hero,
  heroActions,
  heroBoard,
  pillars,
  videoSection,
  clients,
}

/** A picture as the page has it, for a path the draft names. */
type Picture = { src: string; width: number; height: number; path?: string }

/**
 * Puts `value` into `target` in place, field by field. A picture the draft names by its path
 * keeps the page's own if the path is the same, or shows the editor's copy of the file.
 */
function fill(target: unknown, value: Value, picture: (path: string) => string): unknown {
  if (Array.isArray(value)) {
    const items = Array.isArray(target) ? target : []
    const filled = value.map((item, index) => fill(items[index], item, picture))
    if (Array.isArray(target)) {
      target.splice(0, target.length, ...filled)
      return target
    }
    return filled
  }
  if (value && typeof value === 'object') {
    const object = (target && typeof target === 'object' ? target : {}) as Record<string, unknown>
    for (const [key, item] of Object.entries(value)) object[key] = fill(object[key], item, picture)
    return object
  }
  const current = target as Picture | undefined
  if (typeof value === 'string' && current && typeof current === 'object' && 'src' in current) {
    const path = value.replace(/^\/?(content\/)?(imagenes\/)?/, '')
    // The build names each picture it made after its path (clientes/a.svg: …/clientes-a.svg).
    if (current.path === path || current.src.endsWith(`/${path.replaceAll('/', '-')}`))
      return current
    return { ...current, src: picture(`content/imagenes/${path}`), path }
  }
  return value
}

/** The home page's sections, filled with the draft, as HTML. */
export function previewHtml(draft: Draft, picture: (path: string) => string): string {
  for (const [field, value] of Object.entries(draft))
    if (field in modules && value !== undefined) fill(modules[field], value, picture)
  return renderToStaticMarkup(
    <main lang="es">
      <Hero />
      <Clients />
      <Pillars />
      <VideoSection />
    </main>,
  )
}

/** The site's stylesheets, as text for the preview's frame: the global one and the sections'. */
export function previewStyles(): string[] {
  const sections = [...document.querySelectorAll('style[data-vite-dev-id$=".module.css"]')].map(
    (style) => style.textContent ?? '',
  )
  return [globalStyles, ...sections]
}
