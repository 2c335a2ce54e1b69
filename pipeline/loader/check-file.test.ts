import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkContentFile, unreadableProblem } from './check-file.ts'
import { ContentError } from './content-error.ts'
import { CONTENT_DIR } from './read.ts'

const home = readFileSync(join(CONTENT_DIR, 'inicio.yml'), 'utf8')
const lines = home.split('\n')
/** The headline's line: the first title under hero. */
const titleLine =
  lines.findIndex((line, index) => index > lines.indexOf('hero:') && line.startsWith('  title: ')) +
  1
const title = lines[titleLine - 1]!

/** The problem the build reports for inicio.yml with its headline line replaced. */
function problemWith(line: string): ContentError {
  const source = home.replace(`${title}\n`, `${line}\n`)
  try {
    checkContentFile('inicio.yml', source)
  } catch (error) {
    if (error instanceof ContentError) return error
    throw error
  }
  throw new Error('the file was taken')
}

describe('a YAML mistake, told in Spanish with its line and what to do', () => {
  it.each([
    [
      'a colon in a value without quotes',
      '  title: GASPRE: inteligencia en precios',
      /lleva «: » y sin comillas.*comillas simples/,
    ],
    ['a tab as indentation', '\ttitle: Precios', /tabulador; usa solo espacios/],
    ['no space after the colon', '  title:Precios', /falta un espacio después de «:»/],
    ['a # in a value without quotes', '  title: Somos el #1 en precios', /«#» corta el texto/],
    ['a value that is a # note', '  title: #1 en precios', /«#» corta el texto/],
    ['a value starting with *', '  title: *Oferta', /empieza por «\*», «&» o «!»/],
    ['a quote left open', "  title: 'Precios al día", /falta cerrar unas comillas/],
    ['a quote inside quotes', "  title: 'Grupo D'Angelo'", /escríbela dos veces/],
    ['a field written twice', `${title}\n  title: Otro`, /un campo aparece dos veces/],
  ])('%s', (_case, line, reason) => {
    const problem = problemWith(line)
    expect(problem.file).toBe('content/inicio.yml')
    expect(problem.line).toBeGreaterThanOrEqual(titleLine)
    expect(problem.line).toBeLessThanOrEqual(titleLine + 1)
    expect(problem.reason).toMatch(reason)
    // None of the YAML library's English.
    expect(problem.message).not.toMatch(/\b(the|are|is|must|need|not allowed|mapping)\b/i)
  })
})

describe('what the editor cannot show as the schema says', () => {
  it('refuses a group where a text goes, naming the file, line and field', () => {
    const source = home.replace(`${title}\n`, `  title:\n    GASPRE: inteligencia\n`)
    const problem = unreadableProblem('inicio.yml', source)
    expect(problem?.message).toBe(
      `content/inicio.yml, línea ${titleLine}, hero.title: «Título principal» debe ser un texto (entre comillas si empieza por un signo)`,
    )
  })

  it('refuses a YAML mistake and a misspelt field', () => {
    expect(
      unreadableProblem('inicio.yml', home.replace(`${title}\n`, '  title: GASPRE: precios\n'))
        ?.line,
    ).toBe(titleLine)
    expect(
      unreadableProblem(
        'inicio.yml',
        home.replace(`${title}\n`, `${title.replace('title', 'titel')}\n`),
      )?.reason,
    ).toMatch(/campo que el sitio no usa: «titel»/)
  })

  it('leaves to the form what the form can show and fix', () => {
    expect(unreadableProblem('inicio.yml', home)).toBeUndefined()
    const tooLong = home.replace(`${title}\n`, `  title: ${'a'.repeat(96)}\n`)
    expect(unreadableProblem('inicio.yml', tooLong)).toBeUndefined()
  })
})
