import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ContentError } from './content-error.ts'
import { CONTENT_DIR, parseContentFile, type ContentFileName } from './read.ts'

/**
 * Each rule of the content schema, broken once in a copy of the real file: the edit fails with
 * the sentence its editor reads, naming the file, the line and the field.
 */
const original = (name: ContentFileName) => readFileSync(join(CONTENT_DIR, name), 'utf8')

/** The real file with one edit; the edit must change it, or the test would prove nothing. */
function edited(name: ContentFileName, from: string | RegExp, to: string) {
  const text = original(name)
  const changed = text.replace(from, to)
  expect(changed, `the sample edit applies to content/${name}`).not.toBe(text)
  return changed
}

const lineOf = (name: ContentFileName, text: string) =>
  original(name)
    .split('\n')
    .findIndex((line) => line.includes(text)) + 1

/** The problem a sample edit of the file makes. */
const problemAfterEdit = (name: ContentFileName, from: string | RegExp, to: string) =>
  problemWith(name, edited(name, from, to))

function problemWith(name: ContentFileName, source: string): ContentError {
  try {
    parseContentFile(name, source)
  } catch (error) {
    if (error instanceof ContentError) return error
    throw error
  }
  throw new Error(`content/${name} was accepted`)
}

describe('the content files as they are', () => {
  it.each(['sitio.yml', 'inicio.yml', 'formulario.yml', 'tyc.yml'] as const)(
    'content/%s passes its schema',
    (name) => {
      expect(() => parseContentFile(name, original(name))).not.toThrow()
    },
  )
})

describe('a broken edit is refused with a sentence naming the file, line and field', () => {
  it('a text longer than its place on the page', () => {
    const title = 'Sistema de inteligencia en precios para estaciones de servicio'
    const longer = `${title} y grupos gasolineros de todo el país`
    const problem = problemAfterEdit('inicio.yml', `title: ${title}\n`, `title: ${longer}\n`)
    expect(problem.message).toBe(
      `content/inicio.yml, línea ${lineOf('inicio.yml', `  title: ${title}`)}, hero.title: «Título principal» tiene ${longer.length} caracteres y caben 80: acórtalo`,
    )
  })

  it('a required field left out, reported on the line of its group', () => {
    const problem = problemAfterEdit('inicio.yml', /\n {2}lead: Conoce al instante[^\n]*/, '')
    expect(problem.message).toBe(
      `content/inicio.yml, línea ${lineOf('inicio.yml', 'hero:')}, hero.lead: falta «Texto bajo el título»`,
    )
  })

  it('an empty text', () => {
    const problem = problemAfterEdit('inicio.yml', 'name: Petroval', "name: ''")
    expect(problem.message).toBe(
      `content/inicio.yml, línea ${lineOf('inicio.yml', 'name: Petroval')}, clients.logos[2].name: «Nombre del cliente, para lectores de pantalla» está vacío: escribe el texto`,
    )
  })

  it('a picture without its description', () => {
    const problem = problemAfterEdit('inicio.yml', /\n {6}alt: Curva de utilidad[^\n]*/, '')
    expect(problem.message).toMatch(
      /^content\/inicio\.yml, línea \d+, carousel\.slides\[2\]\.alt: falta «Descripción de la imagen»$/,
    )
  })

  it('a carousel with a slide fewer than the design holds', () => {
    const withoutLast = original('inicio.yml').replace(/\n {4}- id: tableros[\s\S]*?(?=\n\n)/, '')
    expect(withoutLast).not.toBe(original('inicio.yml'))
    expect(problemWith('inicio.yml', withoutLast).message).toBe(
      `content/inicio.yml, línea ${lineOf('inicio.yml', '  slides:')}, carousel.slides: «Diapositivas» tiene 3 y deben ser exactamente 4`,
    )
  })

  it('a fourth pillar', () => {
    const problem = problemAfterEdit(
      'inicio.yml',
      '  items:\n',
      '  items:\n    - title: Soporte\n      text: Te acompañamos en todo momento.\n',
    )
    expect(problem.message).toBe(
      `content/inicio.yml, línea ${lineOf('inicio.yml', '  items:')}, pillars.items: «Pilares» tiene 4 y deben ser exactamente 3`,
    )
  })

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['http:', 'http://www.linkedin.com/company/gaspre'],
    ['data:', 'data:text/html,hola'],
    ['a section the page does not have', "'#precios'"],
    ['another site written without https', '//evil.example/'],
  ])('a link to %s', (_, href) => {
    const problem = problemAfterEdit(
      'sitio.yml',
      'href: https://www.linkedin.com/company/gaspre',
      `href: ${href}`,
    )
    expect(problem.message).toMatch(
      new RegExp(
        `^content/sitio\\.yml, línea ${lineOf('sitio.yml', 'href: https://www.linkedin.com')}, social\\[0\\]\\.href: «Dirección del perfil» no es un enlace permitido: usa una dirección https://, mailto:, tel:, una página del sitio`,
      ),
    )
  })

  it.each([
    ['with its + and spaces', '+52 55 1234 5678'],
    ['too short', "'12345'"],
  ])('a WhatsApp number %s', (_, number) => {
    const problem = problemAfterEdit(
      'sitio.yml',
      "whatsappNumber: '5215512345678'",
      `whatsappNumber: ${number}`,
    )
    expect(problem.message).toBe(
      `content/sitio.yml, línea ${lineOf('sitio.yml', 'whatsappNumber:')}, contact.whatsappNumber: «Número de WhatsApp» va en formato internacional: solo dígitos, con el código de país y sin «+» ni espacios, entre comillas, por ejemplo '5215512345678'`,
    )
  })

  it('a WhatsApp number without quotes, which YAML reads as a number', () => {
    const problem = problemAfterEdit(
      'sitio.yml',
      "whatsappNumber: '5215512345678'",
      'whatsappNumber: 5215512345678',
    )
    expect(problem.reason).toBe(
      "«Número de WhatsApp» debe ser un texto entre comillas, por ejemplo '5215512345678'",
    )
  })

  it('a video address where the video id goes', () => {
    const problem = problemAfterEdit(
      'inicio.yml',
      'youtubeId: M7lc1UVf-VE',
      'youtubeId: https://youtu.be/M7lc1UVf-VE',
    )
    expect(problem.message).toMatch(
      /^content\/inicio\.yml, línea \d+, productVideo\.youtubeId: «Identificador del video» debe ser el identificador de YouTube: las 11 letras y números que siguen a «watch\?v=»/,
    )
  })

  it('a logo of a kind the page cannot show', () => {
    const problem = problemAfterEdit(
      'inicio.yml',
      'logo: clientes/ruta-57.svg',
      'logo: clientes/ruta 57.gif',
    )
    expect(problem.message).toBe(
      `content/inicio.yml, línea ${lineOf('inicio.yml', 'logo: clientes/ruta-57.svg')}, clients.logos[4].logo: «Logotipo» debe ser un archivo .svg o .png de content/imagenes/, escrito sin espacios ni acentos, por ejemplo clientes/grupo-ejemplo.svg`,
    )
  })

  it('a misspelt field name', () => {
    const problem = problemAfterEdit('inicio.yml', '  eyebrow:', '  eyebrw:')
    expect(problem.message).toContain('«Portada» tiene un campo que el sitio no usa: «eyebrw»')
  })

  it('a template without the gap the page fills in', () => {
    const problem = problemAfterEdit(
      'inicio.yml',
      'goTo: Ir a la diapositiva {n}',
      'goTo: Ir a la diapositiva',
    )
    expect(problem.message).toBe(
      `content/inicio.yml, línea ${lineOf('inicio.yml', 'goTo:')}, carousel.controls.goTo: «Ir a una diapositiva» debe llevar {n}, donde la página pone el dato`,
    )
  })

  it('a date that does not exist', () => {
    const problem = problemAfterEdit('tyc.yml', "date: '2025-09-23'", "date: '2025-13-45'")
    expect(problem.message).toBe(
      `content/tyc.yml, línea ${lineOf('tyc.yml', 'date:')}, lastUpdated.date: «Fecha» no es una fecha que exista`,
    )
  })

  it('a line YAML cannot read, with its line', () => {
    const problem = problemAfterEdit(
      'formulario.yml',
      '  submit: Enviar solicitud',
      '  submit: "Enviar solicitud',
    )
    expect(problem.file).toBe('content/formulario.yml')
    expect(problem.line).toBeGreaterThanOrEqual(lineOf('formulario.yml', 'submit:'))
    expect(problem.reason).toMatch(/^el archivo no se puede leer aquí/)
  })
})
