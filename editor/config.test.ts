import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { schemaAt } from './checks.ts'
import { cmsConfig } from './config.ts'

type Field = {
  name: string
  label: string
  widget: string
  check?: string
  hint?: string
  fields?: Field[]
  field?: Field
  media_folder?: string
  public_folder?: string
  min?: number
  max?: number
}
type Config = {
  backend: Record<string, string>
  local_backend?: { url: string }
  locale: string
  collections: { name: string; format: string; files: { file: string; fields: Field[] }[] }[]
}

const config = parse(
  cmsConfig({ kind: 'local', proxyUrl: 'http://127.0.0.1:8081/api/v1' }, 'http://127.0.0.1:5173'),
) as Config

function* everyField(fields: Field[], at = ''): Generator<[string, Field]> {
  for (const field of fields) {
    const path = `${at}${field.name}`
    yield [path, field]
    if (field.fields) yield* everyField(field.fields, `${path}.`)
    if (field.field) yield [`${path}[]`, field.field]
  }
}

const fieldAt = (file: string, path: string) => {
  const entry = config.collections
    .flatMap((collection) => collection.files)
    .find((candidate) => candidate.file === file)!
  return [...everyField(entry.fields)].find(([at]) => at === path)?.[1]
}

describe('the content editor’s configuration, made from the schema', () => {
  it('is in Spanish and edits every content file', () => {
    expect(config.locale).toBe('es')
    expect(
      config.collections
        .flatMap((collection) => collection.files.map((entry) => entry.file))
        .sort(),
    ).toEqual([
      'content/formulario.yml',
      'content/inicio.yml',
      'content/privacidad.md',
      'content/sitio.yml',
      'content/terminos.md',
      'content/tyc.yml',
    ])
    expect(config.local_backend?.url).toBe('http://127.0.0.1:8081/api/v1')
  })

  it('calls each field what the page shows, not by its key', () => {
    const unnamed = config.collections
      .flatMap((collection) => collection.files)
      .flatMap((entry) => [...everyField(entry.fields)])
      .filter(
        ([path, field]) =>
          field.label === field.name && !path.endsWith('[]') && field.name !== 'body',
      )
      .map(([path]) => path)
    expect(unnamed).toEqual([])
    expect(fieldAt('content/inicio.yml', 'hero.title')?.label).toBe('Título principal')
  })

  it('warns on the fields whose words the site contract fixes, before anyone edits them', () => {
    for (const [file, path] of [
      ['content/inicio.yml', 'hero.title'],
      ['content/inicio.yml', 'heroActions.videoCta'],
      ['content/inicio.yml', 'videoDialog.close'],
    ] as const) {
      expect(fieldAt(file, path)?.hint).toMatch(/^El contrato del sitio fija este texto/)
    }
    expect(fieldAt('content/inicio.yml', 'hero.lead')?.hint).toBeUndefined()
  })

  it('has every text, picture and list checked by its part of the schema', () => {
    const unchecked = config.collections
      .flatMap((collection) => collection.files)
      .flatMap((entry) => [...everyField(entry.fields)])
      // A select offers only what the schema allows.
      .filter(([, field]) => !['object', 'select'].includes(field.widget) && field.name !== 'body')
      .filter(([, field]) => field.check === undefined || schemaAt(field.check) === undefined)
      .map(([path]) => path)
    expect(unchecked).toEqual([])
    expect(fieldAt('content/inicio.yml', 'hero.title')?.check).toBe('inicio.yml:hero.title')
    expect(fieldAt('content/inicio.yml', 'clients.logos.name')?.check).toBe(
      'inicio.yml:clients.logos.*.name',
    )
    expect(fieldAt('content/inicio.yml', 'carousel.slides')).toMatchObject({ min: 4, max: 4 })
  })

  it('keeps each picture in the folder the build takes it from', () => {
    expect(fieldAt('content/inicio.yml', 'clients.logos.logo')).toMatchObject({
      widget: 'image',
      media_folder: '/content/imagenes/clientes',
      public_folder: 'clientes',
    })
    expect(fieldAt('content/inicio.yml', 'carousel.slides.image')).toMatchObject({
      media_folder: '/content/imagenes/carrusel',
    })
  })

  it('writes to the Git host a production build names', () => {
    const hosted = parse(
      cmsConfig(
        {
          kind: 'git-host',
          name: 'gitlab',
          repo: 'gaspre/sitio',
          branch: 'main',
          baseUrl: 'https://gitlab.com',
        },
        'https://gaspre.mx',
      ),
    ) as Config
    expect(hosted.backend).toEqual({
      name: 'gitlab',
      repo: 'gaspre/sitio',
      branch: 'main',
      base_url: 'https://gitlab.com',
    })
    expect(hosted.local_backend).toBeUndefined()
  })
})
