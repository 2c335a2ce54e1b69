import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import demoFormContent from '../content/formulario.yml?field=demoForm'
import fallbackMessage from '../content/formulario.yml?field=fallbackMessage'
import carouselContent from '../content/inicio.yml?field=carousel'
import clients from '../content/inicio.yml?field=clients'
import demoSectionContent from '../content/inicio.yml?field=demoSection'
import head from '../content/inicio.yml?field=head'
import hero from '../content/inicio.yml?field=hero'
import heroActions from '../content/inicio.yml?field=heroActions'
import heroBoard from '../content/inicio.yml?field=heroBoard'
import pillars from '../content/inicio.yml?field=pillars'
import productVideo from '../content/inicio.yml?field=productVideo'
import videoDialog from '../content/inicio.yml?field=videoDialog'
import videoSection from '../content/inicio.yml?field=videoSection'
import company from '../content/sitio.yml?field=company'
import consent from '../content/sitio.yml?field=consent'
import contact from '../content/sitio.yml?field=contact'
import footer from '../content/sitio.yml?field=footer'
import header from '../content/sitio.yml?field=header'
import notFound from '../content/sitio.yml?field=notFound'
import social from '../content/sitio.yml?field=social'
import termsPage from '../content/tyc.yml'
import consentStyles from '../src/browser/consent-banner.css?inline'
import globalStyles from '../src/styles/global.css?inline'
import { ContentError } from '../pipeline/loader/content-error.ts'
import { parseProse } from '../pipeline/loader/prose.ts'
import { TextAreaField, TextField } from '../src/components/field'
import { MAX_LENGTH } from '../src/contract/demo-request'
import { demoForm } from '../src/copy/demo-form'
import { demoSection } from '../src/copy/demo-section'
import { withCarouselControls, withFormMessages, withPostedResults } from '../src/copy/fill-in'
import { carousel } from '../src/copy/home'
import { legalTexts } from '../src/copy/terms'
import { renderWithIslands } from '../src/islands/island'
import { homeIslands } from '../src/pages/home-islands'
import { HomePage } from '../src/pages/home-page'
import { TermsPage } from '../src/pages/terms-page'
import { requestText } from '../src/rules/fallback-links'
import { SendTimeoutError, sendErrorText } from '../src/rules/send-error-text'
import { ConsentBanner } from '../src/sections/consent-banner'
import { DemoForm, ResultAlert } from '../src/sections/demo-form'
import { DemoSection } from '../src/sections/demo-section'
import { SiteFooter } from '../src/sections/site-footer'
import { SiteHeader } from '../src/sections/site-header'
import { PROSE_LABEL } from './checks.ts'

/**
 * The preview beside each form of the editor: the page the file's words appear on, rendered by
 * the site's own components with its own CSS, filled with what is typed, before anything is
 * published. The editor's copy of the content modules takes the draft's values (this page is
 * the editor's, never the site's), and each preview starts again from the published files, so
 * a draft of one file never shows in another's preview.
 */

type Value = string | number | boolean | null | undefined | Value[] | { [key: string]: Value }
type Draft = { [field: string]: Value }

/**
 * The page's modules for each top-level field of each YAML file, as the components read them;
 * tyc.yml is one module, the whole file.
 */
const MODULES: Record<string, Record<string, unknown>> = {
  inicio: {
    head,
    hero,
    heroActions,
    heroBoard,
    videoDialog,
    carousel: carouselContent,
    clients,
    pillars,
    productVideo,
    videoSection,
    demoSection: demoSectionContent,
  },
  sitio: { company, contact, social, header, footer, consent, notFound },
  formulario: { demoForm: demoFormContent, fallbackMessage },
}
const WHOLE_FILES: Record<string, object> = { tyc: termsPage }

/** The legal texts, by their entry's name, as the build parsed them (pipeline/loader/prose.ts). */
const LEGAL: Record<string, { file: string; document: Record<string, unknown> }> = {
  terminos: { file: 'terminos.md', document: legalTexts.terms },
  privacidad: { file: 'privacidad.md', document: legalTexts.privacy },
}

/** Every module as published, to start each preview from. */
const PUBLISHED = new Map<object, unknown>(
  [
    ...Object.values(MODULES).flatMap(Object.values),
    ...Object.values(WHOLE_FILES),
    ...Object.values(LEGAL).map((legal) => legal.document),
  ].map((module) => [module as object, structuredClone(module)]),
)

/** Puts `target` back to `published`, in place: the components hold these very objects. */
function restore(target: unknown, published: unknown): void {
  if (Array.isArray(target) && Array.isArray(published)) {
    published.forEach((item, index) => {
      if (isObject(target[index]) && isObject(item)) restore(target[index], item)
      else target[index] = structuredClone(item)
    })
    target.length = published.length
    return
  }
  if (!isObject(target) || !isObject(published)) return
  const object = target as Record<string, unknown>
  for (const key of Object.keys(object))
    if (!(key in published)) Reflect.deleteProperty(object, key)
  for (const [key, item] of Object.entries(published)) {
    if (isObject(object[key]) && isObject(item)) restore(object[key], item)
    else object[key] = structuredClone(item)
  }
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null

/** An empty copy of `value`: its texts empty, its pictures without a file. */
function blank(value: unknown): unknown {
  if (Array.isArray(value)) return []
  if (!isObject(value)) return typeof value === 'string' ? '' : value
  if ('src' in value) return { ...value, src: '' }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, blank(item)]))
}

/** A picture as the page has it. */
type Picture = { src: string; width: number; height: number }

/** The address of a picture the draft names (`clientes/a.svg`), at its place in the entry. */
type Pictures = (value: string, where: readonly (string | number)[]) => string

/**
 * Puts `value` into `target` in place, field by field. A picture keeps the page's own while the
 * draft names the file the published entry names (`published`, at the same place); another
 * file shows as the editor has it.
 */
function fill(
  target: unknown,
  value: Value,
  picture: Pictures,
  published: unknown,
  where: readonly (string | number)[],
): unknown {
  const at = (key: string | number) =>
    isObject(published) ? (published as Record<string | number, unknown>)[key] : undefined
  if (Array.isArray(value)) {
    const items = Array.isArray(target) ? target : []
    // A new item takes the shape of the first (its pictures are pictures), with nothing in it.
    const filled = value.map((item, index) =>
      fill(index < items.length ? items[index] : blank(items[0]), item, picture, at(index), [
        ...where,
        index,
      ]),
    )
    if (Array.isArray(target)) {
      target.splice(0, target.length, ...filled)
      return target
    }
    return filled
  }
  if (value && typeof value === 'object') {
    const object = (isObject(target) ? target : {}) as Record<string, unknown>
    for (const [key, item] of Object.entries(value))
      object[key] = fill(object[key], item, picture, at(key), [...where, key])
    return object
  }
  const current = target as Picture | undefined
  if (typeof value === 'string' && isObject(current) && 'src' in current) {
    if (value === published) return current
    return { ...current, src: value ? picture(value, where) : '' }
  }
  return value
}

/** The copy the components read that is made from the files' fields (src/copy/fill-in.ts). */
function fillIn() {
  Object.assign(carousel, withCarouselControls(carouselContent))
  Object.assign(demoForm, withFormMessages(demoFormContent))
  Object.assign(demoSection, withPostedResults(demoSectionContent))
}

/** A note of the editor's between the parts of a preview: what the visitor sees, and where. */
function Caption({ children }: { children: ReactNode }) {
  return (
    <p
      style={{
        margin: 0,
        padding: '10px 16px',
        background: '#eef1f6',
        borderBlock: '1px dashed #9aa5b5',
        color: '#3d4a5c',
        font: '600 14px/1.4 system-ui, sans-serif',
      }}
    >
      {children}
    </p>
  )
}

/**
 * A page as the site lays it out: the fixed header and banner are held by this box (a
 * transform makes it their containing block), so they stay at its top and bottom instead of
 * covering the preview's own buttons, and what hides above the page (the skip link) stays
 * hidden.
 */
function PageBox({ html, minHeight }: { html: string; minHeight?: number }) {
  return (
    <div
      style={{ position: 'relative', transform: 'translateZ(0)', overflow: 'clip', minHeight }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  )
}

const markup = (element: ReactNode) => renderToStaticMarkup(<>{element}</>)

/** «Todo el sitio»: the header and footer, the cookie notice and the page for a lost address. */
function sitePreview() {
  const banner = renderToStaticMarkup(<ConsentBanner />).replace(' hidden=""', '')
  return markup(
    <>
      <Caption>La barra superior, en todas las páginas</Caption>
      <PageBox html={renderToStaticMarkup(<SiteHeader linkBase="" />)} minHeight={72} />
      <Caption>
        El aviso de cookies, al pie de la pantalla en la primera visita (solo si el sitio se publica
        con Google Tag Manager)
      </Caption>
      <PageBox html={banner} minHeight={240} />
      <Caption>La página que ve quien abre una dirección que no existe</Caption>
      <div style={{ padding: '16px', background: '#fff', color: '#000', font: '16px serif' }}>
        <p style={{ margin: '0 0 8px', font: '13px system-ui, sans-serif', color: '#5f6b7a' }}>
          Pestaña del navegador: {notFound.title}
        </p>
        <p style={{ margin: 0 }}>
          {notFound.text} <a href="/">{notFound.homeLink}</a>.
        </p>
      </div>
      <Caption>El pie de página, en todas las páginas</Caption>
      <PageBox html={renderToStaticMarkup(<SiteFooter />)} />
    </>,
  )
}

/** A sample request, to show the message the form writes when a send fails. */
const SAMPLE_REQUEST = {
  user_name: 'Ana López',
  user_email: 'ana@grupo.com',
  user_phone: '+52 55 1234 5678',
  user_group: 'Grupo Ejemplo',
  message: 'Tenemos 12 estaciones en Querétaro.',
  contact_number: '+52 55 1234 5678',
}

/** «Formulario de demo»: the form as the page shows it, and what it says after a send. */
function formPreview() {
  const { labels, errors, hints } = demoForm
  const section = renderWithIslands(<DemoSection />, { 'demo-form': () => <DemoForm /> })
  const links = {
    whatsapp: `https://wa.me/${contact.whatsappNumber}`,
    email: `mailto:${contact.email}`,
  }
  // Open in place, in the flow of the preview, rather than over it.
  const alerts = renderToStaticMarkup(
    <>
      <ResultAlert result={{ kind: 'success' }} onClose={() => {}} />
      <ResultAlert
        result={{ kind: 'error', text: sendErrorText(new SendTimeoutError(15_000)), links }}
        onClose={() => {}}
      />
    </>,
  ).replaceAll('<dialog ', '<dialog open="" style="position:static;margin:0" ')
  return markup(
    <>
      <Caption>La sección de la demo, en la página de inicio</Caption>
      <PageBox html={section} />
      <Caption>Los mensajes de los campos, cuando falta un dato o no vale</Caption>
      <div className="container" style={{ paddingBlock: '24px', maxWidth: '40rem' }}>
        <TextField label={labels.user_name} error={errors.required.user_name} readOnly />
        <TextField label={labels.user_email} error={errors.email} readOnly />
        <TextField
          label={labels.user_phone}
          hint={hints.user_phone}
          error={errors.phone}
          readOnly
        />
        <TextAreaField
          label={labels.message}
          error={errors.tooLong(MAX_LENGTH.message)}
          rows={2}
          readOnly
        />
        <p style={{ marginTop: '16px' }}>{errors.summary}</p>
      </div>
      <Caption>La ventana tras enviar: si se envió y si falló</Caption>
      <div
        className="container"
        style={{ display: 'grid', gap: '24px', justifyItems: 'start', paddingBlock: '24px' }}
        dangerouslySetInnerHTML={{ __html: alerts }}
      />
      <Caption>El mensaje que se arma para WhatsApp o el correo si el envío falla</Caption>
      <div className="container" style={{ paddingBlock: '24px' }}>
        <p style={{ fontWeight: 600 }}>{fallbackMessage.subject}</p>
        <p style={{ whiteSpace: 'pre-wrap' }}>{requestText(SAMPLE_REQUEST, fallbackMessage)}</p>
      </div>
    </>,
  )
}

/** What a preview shows: the page, and a problem that keeps part of the draft from showing. */
type PreviewPage = { html: string; problem?: string }

const PAGES: Record<string, () => string> = {
  inicio: () => markup(<PageBox html={renderWithIslands(<HomePage />, homeIslands)} />),
  sitio: sitePreview,
  formulario: formPreview,
  tyc: () => markup(<PageBox html={renderWithIslands(<TermsPage />, {})} />),
  terminos: () => PAGES.tyc!(),
  privacidad: () => PAGES.tyc!(),
}

/** The entries that have a preview: every file of both collections, by its name in config.ts. */
export const previewEntries = Object.keys(PAGES)

/**
 * The page of entry `name` (inicio, terminos…), filled with `draft`, as HTML; `published` is
 * the entry as last read from its file. A legal text whose Markdown the build would refuse
 * shows as published, with the build's sentence.
 */
export function previewHtml(
  name: string,
  draft: Draft,
  picture: Pictures,
  published: Draft = {},
): PreviewPage {
  for (const [module, published] of PUBLISHED) restore(module, published)
  let problem: string | undefined
  const modules = MODULES[name] ?? {}
  for (const [field, value] of Object.entries(draft))
    if (field in modules && value !== undefined)
      fill(modules[field], value, picture, published[field], [field])
  const whole = WHOLE_FILES[name]
  if (whole) fill(whole, draft, picture, published, [])
  const legal = LEGAL[name]
  if (legal) {
    if (typeof draft.title === 'string') legal.document.title = draft.title
    try {
      Object.assign(legal.document, parseProse(`content/${legal.file}`, String(draft.body ?? '')))
    } catch (error) {
      if (!(error instanceof ContentError)) throw error
      const where = error.line === undefined ? '' : `, línea ${error.line}`
      problem = `«${PROSE_LABEL}»${where}: ${error.reason}`
    }
  }
  fillIn()
  const render = PAGES[name] ?? (() => '')
  try {
    return { html: render(), ...(problem === undefined ? {} : { problem }) }
  } catch {
    // A draft half filled in (a new item with a field still empty) may be one the page cannot
    // be drawn from: the published page shows until it is complete.
    for (const [module, published] of PUBLISHED) restore(module, published)
    fillIn()
    return {
      html: render(),
      problem:
        problem ??
        'Falta algún dato de lo que estás añadiendo: la vista previa lo muestra en cuanto lo completes.',
    }
  }
}

/** The site's stylesheets for the preview's frame, as text or as a file of the editor's. */
export function previewStyles(): { css: string; raw: boolean }[] {
  const own = [globalStyles, consentStyles].map((css) => ({ css, raw: true }))
  // Built for a Git host, the sections' styles are one file beside the editor (editor/build.ts);
  // in development, Vite has put each in the editor's page.
  if (!import.meta.env.DEV) return [...own, { css: '/admin/preview.css', raw: false }]
  const sections = [...document.querySelectorAll('style[data-vite-dev-id$=".module.css"]')].map(
    (style) => ({ css: style.textContent ?? '', raw: true }),
  )
  return [...own, ...sections]
}
