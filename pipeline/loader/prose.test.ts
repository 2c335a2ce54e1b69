import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ContentError } from './content-error.ts'
import { CONTENT_DIR, parseProseFile } from './read.ts'

const FRONT = '---\ntitle: Términos de prueba\n---\n\n'

function problemWith(body: string, front = FRONT): ContentError {
  try {
    parseProseFile('terminos.md', `${front}${body}`)
  } catch (error) {
    if (error instanceof ContentError) return error
    throw error
  }
  throw new Error('the text was accepted')
}

describe('the legal texts in Markdown', () => {
  it('give the page its sections, their addresses and the table of contents from the headings', () => {
    const terms = parseProseFile(
      'terminos.md',
      readFileSync(join(CONTENT_DIR, 'terminos.md'), 'utf8'),
    )
    expect(terms.title).toBe('Términos y condiciones de uso')
    expect(terms.intro).toHaveLength(2)
    expect(terms.sections.map((section) => section.id)).toEqual([
      'responsable',
      'objeto',
      'condiciones-de-uso',
      'suscripcion',
      'datos-personales',
      'entrega',
      'responsabilidad',
      'propiedad-intelectual',
      'cambios',
      'terminacion',
      'jurisdiccion',
    ])
    expect(terms.sections[3]!.title).toBe('Suscripción, baja y preferencias')
  })

  it('give a heading without {#…} an address made from its words', () => {
    const text = parseProseFile('terminos.md', `${FRONT}## Suscripción, baja y más\n\nTexto.\n`)
    expect(text.sections[0]).toEqual({
      id: 'suscripcion-baja-y-mas',
      title: 'Suscripción, baja y más',
      blocks: [{ kind: 'paragraph', content: ['Texto.'] }],
    })
  })

  it('keep paragraphs, bulleted lists and https links', () => {
    const text = parseProseFile(
      'terminos.md',
      `${FRONT}## Uno {#uno}\n\nLee el [aviso](/tyc#aviso-de-privacidad) o\nescribe.\n\n- Primero.\n- Segundo con [enlace](https://gaspre.mx).\n`,
    )
    expect(text.sections[0]!.blocks).toEqual([
      {
        kind: 'paragraph',
        content: ['Lee el ', { href: '/tyc#aviso-de-privacidad', text: 'aviso' }, ' o escribe.'],
      },
      {
        kind: 'list',
        items: [['Primero.'], ['Segundo con ', { href: 'https://gaspre.mx', text: 'enlace' }, '.']],
      },
    ])
  })

  it('keep HTML written in the text as text, never as markup', () => {
    const text = parseProseFile(
      'terminos.md',
      `${FRONT}## Uno {#uno}\n\nAntes <script>alert(1)</script> y <img src=x onerror=alert(1)> después.\n`,
    )
    expect(text.sections[0]!.blocks[0]).toEqual({
      kind: 'paragraph',
      content: ['Antes <script>alert(1)</script> y <img src=x onerror=alert(1)> después.'],
    })
  })

  it('never turn a javascript: address into a link', () => {
    const text = parseProseFile(
      'terminos.md',
      `${FRONT}## Uno {#uno}\n\n[pulsa](javascript:alert(1))\n`,
    )
    expect(text.sections[0]!.blocks[0]).toEqual({
      kind: 'paragraph',
      content: ['[pulsa](javascript:alert(1))'],
    })
  })

  it.each([
    [
      'an http link',
      '## Uno\n\n[sitio](http://gaspre.mx)\n',
      7,
      /el enlace «http:\/\/gaspre\.mx» no está permitido/,
    ],
    [
      'a heading of another level',
      '## Uno\n\n### Dos\n',
      7,
      /cada sección empieza con «## Título»/,
    ],
    ['a numbered list', '## Uno\n\n1. Primero\n', 7, /las listas van con guiones/],
    ['bold text', '## Uno\n\nTexto **fuerte**.\n', 7, /este formato \(strong\) no se usa/],
    [
      'two sections with one address',
      '## Uno {#uno}\n\nA.\n\n## Otra {#uno}\n\nB.\n',
      9,
      /dos secciones tienen la misma dirección «#uno»/,
    ],
  ])('refuse %s, with its line', (_, body, line, reason) => {
    const problem = problemWith(body)
    expect(problem.file).toBe('content/terminos.md')
    expect(problem.line).toBe(line)
    expect(problem.reason).toMatch(reason)
  })

  it('refuse a text without its title', () => {
    expect(problemWith('## Uno\n\nA.\n', '').message).toMatch(
      /^content\/terminos\.md, línea 1: el archivo debe empezar con su título entre dos líneas «---»/,
    )
    expect(problemWith('## Uno\n\nA.\n', '---\ntitle: ""\n---\n').message).toBe(
      'content/terminos.md, línea 2, title: «Título» está vacío: escribe el texto',
    )
  })
})
