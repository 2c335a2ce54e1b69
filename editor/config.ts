import { stringify } from 'yaml'
import { z } from 'zod'
import { contentFiles, IMAGE_FOLDER, proseFrontMatterSchema } from '../src/copy/schema.ts'
import type { ContentFileName } from '../pipeline/loader/read.ts'
import { PROSE_LABEL } from './checks.ts'

/**
 * Decap CMS's configuration, made from the content schema: each field is called what the
 * schema calls it (what the visitor sees, "Título principal"), carries its hint, and is checked
 * in the editor by the rules JSON Schema can carry (required, length, format, how many items).
 * What it cannot carry (a link's kind, a template's gaps) the build still checks.
 */

/** How Decap reaches the repository: its local proxy, or a Git host (docs/editing-content.md). */
export type CmsBackend =
  | { readonly kind: 'local'; readonly proxyUrl: string }
  | {
      readonly kind: 'git-host'
      readonly name: 'github' | 'gitlab'
      readonly repo: string
      readonly branch: string
      readonly baseUrl: string
    }

type JsonSchema = {
  type?: string
  title?: string
  description?: string
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema | false
  prefixItems?: JsonSchema[]
  minItems?: number
  maxItems?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  enum?: string[]
  image?: boolean
  imageFolder?: string
}

type DecapField = Record<string, unknown>

/** Where a page's copy has room for a paragraph rather than a line. */
const PARAGRAPH_LENGTH = 100

const FILES: Record<ContentFileName, { label: string; description: string }> = {
  'inicio.yml': {
    label: 'Página de inicio',
    description: 'La portada, el carrusel, los clientes, los pilares, el video y la demo.',
  },
  'sitio.yml': {
    label: 'Todo el sitio',
    description: 'Empresa, contacto, menú, pie de página, aviso de cookies.',
  },
  'formulario.yml': {
    label: 'Formulario de demo',
    description: 'Etiquetas, ayudas, errores y avisos del formulario, y la agenda de la demo.',
  },
  'tyc.yml': {
    label: 'Términos y privacidad: la página',
    description: 'El título, la fecha y el índice de /tyc.',
  },
}

const PROSE_FILES = {
  'terminos.md': { label: 'Términos y condiciones (texto)' },
  'privacidad.md': { label: 'Aviso de privacidad (texto)' },
} as const

/** Decap writes a hint as Markdown: what to type goes as code, or a link would show as one. */
const PROSE_HINT =
  'Markdown: un párrafo por bloque, separados por una línea en blanco; listas con `- ` al principio de cada punto; enlaces como `[texto](https://…)`; cada sección empieza con `## Título {#ancla}`. Sin negritas, tablas, imágenes ni listas numeradas.'

/**
 * A field of `file` at `path` (`hero.title`; `*` for any item of a list). Its value is checked
 * by its part of the schema, named in `check` (checks.ts), with the build's sentences.
 */
function field(
  name: string,
  node: JsonSchema,
  required: boolean,
  file: string,
  path: string,
): DecapField {
  const common = {
    name,
    label: node.title ?? name,
    ...(node.description ? { hint: node.description } : {}),
    ...(required ? {} : { required: false }),
  }
  const check = { check: `${file}:${path}` }
  if (node.image)
    return {
      ...common,
      ...check,
      widget: 'image',
      choose_url: false,
      media_folder: `/${IMAGE_FOLDER}/${node.imageFolder}`,
      public_folder: node.imageFolder,
    }
  if (node.enum) return { ...common, widget: 'select', options: node.enum }
  if (node.type === 'object')
    return { ...common, widget: 'object', fields: fields(node, file, `${path}.`) }
  if (node.type === 'array') {
    const item = node.prefixItems?.[0] ?? (node.items || {})
    const size = {
      ...(node.minItems !== undefined ? { min: node.minItems } : {}),
      ...(node.maxItems !== undefined ? { max: node.maxItems } : {}),
    }
    if (item.type === 'object') {
      const summary = summaryField(item)
      return {
        ...common,
        ...check,
        widget: 'list',
        ...(item.title ? { label_singular: item.title } : {}),
        ...(summary ? { summary: `{{fields.${summary}}}` } : {}),
        ...size,
        fields: fields(item, file, `${path}.*.`),
      }
    }
    const itemLabel = node.prefixItems ? (node.title ?? name) : (item.title ?? name)
    // A list of short texts (the board's columns, the promises) shows them all, unfolded.
    return {
      ...common,
      ...check,
      widget: 'list',
      collapsed: false,
      summary: '{{fields.item}}',
      ...size,
      field: { ...field('item', item, true, file, `${path}.*`), label: itemLabel },
    }
  }
  return {
    ...common,
    ...check,
    widget: (node.maxLength ?? 0) > PARAGRAPH_LENGTH ? 'text' : 'string',
  }
}

/**
 * The field a folded item of a list is known by: what the page shows of it (a slide's title, a
 * client's name), not its first field (a slide's identifier).
 */
function summaryField(item: JsonSchema): string | undefined {
  const properties = Object.entries(item.properties ?? {})
  const texts = properties.filter(
    ([name, child]) => child.type === 'string' && !child.image && name !== 'id',
  )
  return (
    ['title', 'name', 'label'].find((name) => texts.some(([text]) => text === name)) ??
    texts[0]?.[0]
  )
}

const fields = (node: JsonSchema, file: string, at = ''): DecapField[] =>
  Object.entries(node.properties ?? {}).map(([name, child]) =>
    field(
      name,
      child,
      (node.required ?? []).includes(name) && child.minLength !== 0,
      file,
      `${at}${name}`,
    ),
  )

const jsonSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema

function backendConfig(backend: CmsBackend) {
  if (backend.kind === 'local')
    return {
      // Never used on this machine: local_backend sends every read and write to the proxy.
      backend: { name: 'git-gateway' },
      local_backend: { url: backend.proxyUrl, allowed_hosts: ['127.0.0.1'] },
    }
  return {
    backend: {
      name: backend.name,
      repo: backend.repo,
      branch: backend.branch,
      base_url: backend.baseUrl,
    },
  }
}

/** The CMS's config.yml. */
export function cmsConfig(backend: CmsBackend, siteUrl: string): string {
  const config = {
    ...backendConfig(backend),
    locale: 'es',
    // The sign-in page carries the site's name (editor/logo.svg).
    logo: { src: '/admin/logo.svg', show_in_header: false },
    site_url: siteUrl,
    display_url: siteUrl,
    publish_mode: 'simple',
    media_folder: IMAGE_FOLDER,
    public_folder: '',
    collections: [
      {
        name: 'contenido',
        label: 'Contenido del sitio',
        // Each file keeps its comments and layout; a publish changes only what changed.
        format: 'yml-in-place',
        // Beside each form, its page as the site renders it (preview.tsx).
        editor: { preview: true },
        files: (Object.keys(FILES) as ContentFileName[]).map((name) => ({
          name: name.replace(/\.yml$/, ''),
          label: FILES[name].label,
          description: FILES[name].description,
          file: `content/${name}`,
          fields: fields(jsonSchema(contentFiles[name]), name),
        })),
      },
      {
        name: 'legal',
        label: 'Textos legales',
        // The front matter keeps its notes; the Markdown is written as typed.
        format: 'md-in-place',
        editor: { preview: true },
        files: Object.entries(PROSE_FILES).map(([name, { label }]) => ({
          name: name.replace(/\.md$/, ''),
          label,
          file: `content/${name}`,
          fields: [
            ...fields(jsonSchema(proseFrontMatterSchema), name),
            // Read by the build's own Markdown parser (checks.ts).
            {
              name: 'body',
              label: PROSE_LABEL,
              widget: 'text',
              hint: PROSE_HINT,
              check: `${name}:body`,
            },
          ],
        })),
      },
    ],
  }
  return `# Made by editor/config.ts from the content schema: edit that, not this.\n${stringify(config, { lineWidth: 0 })}`
}
