import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { entryProblems, fieldProblem, labelAt, maxLength } from './checks.ts'
import { CONTENT_DIR } from '../pipeline/loader/read.ts'

const home = () => parse(readFileSync(join(CONTENT_DIR, 'inicio.yml'), 'utf8'))

describe('the editor’s checks, the build’s schema', () => {
  it('tells a text too long with its count and its limit, and counts against that limit', () => {
    expect(fieldProblem('inicio.yml:hero.title', 'a'.repeat(96))).toBe(
      '«Título principal» tiene 96 caracteres y caben 80: acórtalo',
    )
    expect(fieldProblem('inicio.yml:hero.title', 'a'.repeat(80))).toBeUndefined()
    expect(maxLength('inicio.yml:hero.title')).toBe(80)
    expect(maxLength('inicio.yml:clients.logos.*.name')).toBe(60)
  })

  it('refuses a link, an empty text, a WhatsApp number and a picture the build refuses', () => {
    expect(fieldProblem('inicio.yml:heroActions.primaryCta.href', 'www.example.com')).toMatch(
      /^«Botón principal: dirección» no es un enlace permitido/,
    )
    expect(fieldProblem('inicio.yml:heroActions.primaryCta.href', '#nuestros-clientes')).toBe(
      undefined,
    )
    expect(fieldProblem('inicio.yml:hero.eyebrow', '')).toBe(
      '«Texto sobre el título» está vacío: escribe el texto',
    )
    expect(fieldProblem('sitio.yml:contact.whatsappNumber', '+52 55 1234 5678')).toMatch(
      /^«Número de WhatsApp» va en formato internacional/,
    )
    expect(fieldProblem('inicio.yml:clients.logos.*.logo', 'clientes/mi logo.svg')).toMatch(
      /^«Logotipo» debe ser un archivo \.svg o \.png/,
    )
  })

  it('tells a list’s size in the build’s words', () => {
    const proof = home().hero.proof
    expect(
      fieldProblem('inicio.yml:hero.proof', proof.slice(0, 2), (issue) => issue.path.length === 0),
    ).toBe('«Cifras» tiene 2 y deben ser exactamente 3')
  })

  it('checks a whole entry before it is written, naming the file and the field', () => {
    expect(entryProblems('content/inicio.yml', home())).toEqual([])
    const edited = home()
    edited.hero.title = 'a'.repeat(96)
    expect(entryProblems('content/inicio.yml', edited)).toEqual([
      'content/inicio.yml, hero.title: «Título principal» tiene 96 caracteres y caben 80: acórtalo',
    ])
    expect(entryProblems('content/terminos.md', { title: '', body: '## Uno\n\nTexto' })).toEqual([
      'content/terminos.md, title: «Título» está vacío: escribe el texto',
    ])
  })

  it('reads a legal text’s Markdown with the build’s parser, telling the line in the field', () => {
    const body = 'Una introducción.\n\n# Un título de más\n\n## Sección {#seccion}\n\nTexto.\n'
    const sentence =
      '«Texto», línea 3: cada sección empieza con «## Título» (dos almohadillas); «# » no se usa aquí: el título del documento va arriba, en «title:»'
    expect(fieldProblem('terminos.md:body', body)).toBe(sentence)
    expect(fieldProblem('privacidad.md:body', '## Sección\n\n1. Uno\n2. Dos\n')).toBe(
      '«Texto», línea 3: las listas van con guiones («- »), no numeradas: la página ya numera las secciones',
    )
    expect(fieldProblem('terminos.md:body', body.replace('# Un título de más', 'Más texto.'))).toBe(
      undefined,
    )
    expect(entryProblems('content/terminos.md', { title: 'Términos', body })).toEqual([
      `content/terminos.md, ${sentence}`,
    ])
  })

  it('checks each item of a list whose items differ by its own rule', () => {
    expect(maxLength('inicio.yml:heroBoard.columns.0')).toBe(12)
    expect(maxLength('inicio.yml:heroBoard.columns.1')).toBe(9)
    expect(fieldProblem('inicio.yml:heroBoard.columns.2', 'Magna 87 E')).toBe(
      '«Columna 2» tiene 10 caracteres y caben 9: acórtalo',
    )
    expect(labelAt('inicio.yml:heroBoard.columns.1')).toBe('Columna 1')
    expect(maxLength('inicio.yml:clients.logos.3.name')).toBe(60)
  })
})
