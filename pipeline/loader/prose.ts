import MarkdownIt from 'markdown-it'
import type { Token } from 'markdown-it'
import {
  isAllowedHref,
  type Inline,
  type ProseBlock,
  type ProseDocument,
  type ProseSection,
} from '../../src/copy/schema.ts'
import { ContentError } from './content-error.ts'

// Raw HTML off: a `<script>` or an `onerror=` written in a legal text stays text on the page.
// No typographer or linkify: the text is published as the legal team wrote it.
const markdown = new MarkdownIt('commonmark', { html: false, linkify: false, typographer: false })

/** An address for a heading without `{#id}`: 'Suscripción, baja' → 'suscripcion-baja'. */
function slugOf(title: string) {
  return title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

const EXPLICIT_ID = /\s*\{#([a-z0-9]+(?:-[a-z0-9]+)*)\}\s*$/

/**
 * The legal texts' Markdown as the page renders it: paragraphs, bulleted lists and links
 * under `## Heading {#id}` sections. Anything else (other headings, images, tables, HTML,
 * bold) is refused with its line, so the page never shows a shape it was not designed for.
 */
export function parseProse(
  file: string,
  source: string,
  firstLine = 1,
): Omit<ProseDocument, 'title'> {
  const tokens = markdown.parse(source, {})
  const intro: ProseBlock[] = []
  const sections: ProseSection[] = []
  const ids = new Set<string>()
  const fail = (token: Token | undefined, reason: string): never => {
    throw new ContentError(file, token?.map ? token.map[0] + firstLine : undefined, '', reason)
  }
  const blocks = () => sections.at(-1)?.blocks ?? intro
  const inlineOf = (token: Token | undefined) =>
    token?.type === 'inline' ? inlineContent(token, fail) : fail(token, 'falta el texto')

  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!
    switch (token.type) {
      case 'heading_open': {
        if (token.tag !== 'h2')
          fail(
            token,
            `cada sección empieza con «## Título» (dos almohadillas); «${token.markup} » no se usa aquí: el título del documento va arriba, en «title:»`,
          )
        const raw = tokens[index + 1]!.content
        const explicit = EXPLICIT_ID.exec(raw)
        const title = raw.replace(EXPLICIT_ID, '').trim()
        const id = explicit?.[1] ?? slugOf(title)
        if (!title) fail(token, 'una sección no tiene título')
        if (ids.has(id))
          fail(token, `dos secciones tienen la misma dirección «#${id}»: cambia el {#…} de una`)
        ids.add(id)
        sections.push({ id, title, blocks: [] })
        index += 2
        break
      }
      case 'paragraph_open':
        ;(blocks() as ProseBlock[]).push({
          kind: 'paragraph',
          content: inlineOf(tokens[index + 1]),
        })
        index += 2
        break
      case 'bullet_list_open': {
        const items: Inline[][] = []
        for (index++; tokens[index]!.type !== 'bullet_list_close'; index++) {
          const item = tokens[index]!
          if (item.type === 'list_item_open' || item.type === 'list_item_close') continue
          if (item.type === 'paragraph_open') {
            items.push(inlineOf(tokens[index + 1]))
            index += 2
            continue
          }
          fail(item, 'un punto de la lista solo puede llevar texto: sin listas dentro de listas')
        }
        ;(blocks() as ProseBlock[]).push({ kind: 'list', items })
        break
      }
      default:
        fail(token, unsupportedBlock(token))
    }
  }
  if (sections.length === 0)
    throw new ContentError(
      file,
      undefined,
      '',
      'el texto no tiene secciones: cada una empieza con una línea «## Título»',
    )
  return { intro, sections }
}

function unsupportedBlock(token: Token) {
  if (token.type === 'ordered_list_open')
    return 'las listas van con guiones («- »), no numeradas: la página ya numera las secciones'
  if (token.type === 'fence' || token.type === 'code_block')
    return 'un bloque con sangría o entre ``` no se usa en los textos legales: quita la sangría'
  return `este formato (${token.type.replace(/_open$/, '')}) no se usa en los textos legales: usa párrafos, listas con guiones y enlaces`
}

function inlineContent(
  inline: Token,
  fail: (token: Token | undefined, reason: string) => never,
): Inline[] {
  const content: Inline[] = []
  const children = inline.children ?? []
  const append = (text: string) => {
    const last = content.at(-1)
    if (typeof last === 'string') content[content.length - 1] = last + text
    else content.push(text)
  }
  for (let index = 0; index < children.length; index++) {
    const child = children[index]!
    if (child.type === 'text' || child.type === 'code_inline') append(child.content)
    else if (child.type === 'softbreak' || child.type === 'hardbreak') append(' ')
    else if (child.type === 'link_open') {
      const href = String(child.attrGet('href') ?? '')
      if (!isAllowedHref(href))
        fail(
          inline,
          `el enlace «${href}» no está permitido: usa https://, mailto:, tel: o una página del sitio`,
        )
      let text = ''
      for (index++; children[index] && children[index]!.type !== 'link_close'; index++)
        text += String(children[index]!.content)
      content.push({ href, text })
    } else if (child.type === 'html_inline') append(child.content)
    else
      fail(
        inline,
        `este formato (${child.type.replace(/_open$/, '')}) no se usa en los textos legales: usa texto y enlaces [texto](https://…)`,
      )
  }
  return content
}
