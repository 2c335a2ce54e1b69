import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as prettier from 'prettier'
import { describe, expect, it } from 'vitest'
import { fromFile, proseFromFile, proseToFile, toFile } from './formats.ts'
import { CONTENT_DIR } from '../pipeline/loader/read.ts'

type Home = {
  hero: { title: string }
  clients: { logos: { name: string; logo: string }[] }
  carousel: { slides: { id: string }[] }
}
type Site = { company: { name: string } }

/**
 * What the editor does on 'Publicar': read the file, change fields (or hand back the fields in
 * an order of its own), write it back.
 */
function publish<Data>(name: string, change: (data: Data) => Data) {
  const before = readFileSync(join(CONTENT_DIR, name), 'utf8')
  const data = structuredClone(fromFile(before)) as Data
  const after = toFile(change(data) as Parameters<typeof toFile>[0])
  return { before, after }
}

/** The lines that differ, in order, as a reviewer reads the diff. */
function changedLines(before: string, after: string) {
  const a = before.split('\n')
  const b = after.split('\n')
  return {
    removed: a.filter((line) => !b.includes(line)),
    added: b.filter((line) => !a.includes(line)),
  }
}

const formatted = (text: string) =>
  prettier.check(text, { parser: 'yaml', singleQuote: true, printWidth: 100 })

describe('the content editor writes a YAML file in place', () => {
  it('changes only the line of the edited field, keeping every comment and quote', async () => {
    const { before, after } = publish<Home>('inicio.yml', (data) => {
      data.hero.title = 'Inteligencia en precios para tu estación'
      return data
    })
    expect(changedLines(before, after)).toEqual({
      removed: ['  title: Sistema de inteligencia en precios para estaciones de servicio'],
      added: ['  title: Inteligencia en precios para tu estación'],
    })
    expect(await formatted(after)).toBe(true)
  })

  it('adds a client at the end of the list without touching the others', async () => {
    const { before, after } = publish<Home>('inicio.yml', (data) => {
      data.clients.logos.push({ name: 'Gasolinera Nueva: Norte', logo: 'clientes/nueva.svg' })
      return data
    })
    expect(changedLines(before, after)).toEqual({
      removed: [],
      added: ["    - name: 'Gasolinera Nueva: Norte'", '      logo: clientes/nueva.svg'],
    })
    expect(await formatted(after)).toBe(true)
  })

  it('writes the data it was given even when the order of its fields differs from the file', () => {
    const { after } = publish<Site>('sitio.yml', ({ company, ...rest }) => ({
      ...rest,
      company: { ...company, name: 'GASPRE MX' },
    }))
    expect(fromFile(after)).toMatchObject({ company: { name: 'GASPRE MX' } })
    expect(after).toMatch(/^# Datos y textos que comparten todas las páginas/)
  })

  it('removes a slide and keeps the rest', () => {
    const { after } = publish<Home>('inicio.yml', (data) => {
      data.carousel.slides.splice(1, 1)
      return data
    })
    const slides = (fromFile(after) as Home).carousel.slides.map((slide) => slide.id)
    expect(slides).toEqual(['competencia', 'precio-optimo', 'tableros'])
  })
})

describe('the content editor writes a legal text in place', () => {
  it('keeps the notes of its front matter and changes only what was edited', () => {
    const before = readFileSync(join(CONTENT_DIR, 'terminos.md'), 'utf8')
    const data = proseFromFile(before) as { title: string; body: string }
    expect(data.body.startsWith('Estos Términos')).toBe(true)
    expect(proseToFile(structuredClone(data))).toBe(before)
    const after = proseToFile({ ...data, title: 'Términos de uso del sitio' })
    expect(changedLines(before, after)).toEqual({
      removed: [`title: ${data.title}`],
      added: ['title: Términos de uso del sitio'],
    })
  })
})
