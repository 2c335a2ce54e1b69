import type { z } from 'zod'
import { ContentError } from '../pipeline/loader/content-error.ts'
import { parseProse } from '../pipeline/loader/prose.ts'
import { contentFiles, proseFrontMatterSchema } from '../src/copy/schema.ts'

/**
 * The content editor checks what the build checks, with the build's rules and sentences: each
 * field against its part of src/copy/schema.ts as it is typed and before a publish (with a
 * live count of characters where there is a limit), and the whole entry once more before
 * anything is written (Decap's preSave). No rule is written here a second time.
 *
 * config.ts marks each checked field with `check: 'inicio.yml:hero.title'`, the file and
 * the field's place in it, `*` standing for any item of a list (setup.ts puts each item's own
 * number in its place, so an item of a list whose items differ is checked by its own rule). A
 * legal text's Markdown (`terminos.md:body`) is read by the build's own parser (prose.ts).
 */

/** The schema of each file the editor writes, by its name in content/. */
const FILE_SCHEMAS: Record<string, z.ZodType> = {
  ...contentFiles,
  'terminos.md': proseFrontMatterSchema,
  'privacidad.md': proseFrontMatterSchema,
}

type Def = {
  type: string
  shape?: Record<string, z.ZodType>
  element?: z.ZodType
  items?: z.ZodType[]
  in?: z.ZodType
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def

/**
 * The part of a file's schema at `path` (`hero.title`, `clients.logos.*.name`).
 * @internal exported for the configuration's test, which checks every field names one
 */
export function schemaAt(check: string): z.ZodType | undefined {
  const [file, path = ''] = check.split(':')
  let schema: z.ZodType | undefined = FILE_SCHEMAS[file!]
  for (const key of path.split('.').filter(Boolean)) {
    if (schema === undefined) return undefined
    let def = defOf(schema)
    // A picture's name is checked, then turned into what the build processes.
    while (def.type === 'pipe' && def.in) def = defOf(def.in)
    if (def.type === 'object') schema = def.shape?.[key]
    else if (def.type === 'array') schema = def.element
    // A tuple's items differ only in their length; the entry's check tells each apart.
    else if (def.type === 'tuple') schema = def.items?.[key === '*' ? 0 : Number(key)]
    else return undefined
  }
  return schema
}

/** Plain data from Decap's Immutable values. */
const plain = (value: unknown): unknown =>
  value && typeof (value as { toJS?: unknown }).toJS === 'function'
    ? (value as { toJS(): unknown }).toJS()
    : value

/** A legal text's Markdown body, marked by config.ts as `terminos.md:body`. */
const PROSE_BODY = /^([\w-]+\.md):body$/

/** The label of a legal text's Markdown field, as config.ts names it. */
export const PROSE_LABEL = 'Texto'

/**
 * Why the build would refuse a legal text's Markdown, in its own sentence, with the line of the
 * field it is on (`«Texto», línea 7: las listas van con guiones…`); undefined if it takes it.
 */
function proseProblem(file: string, body: unknown): string | undefined {
  try {
    parseProse(`content/${file}`, typeof body === 'string' ? body : '')
    return undefined
  } catch (error) {
    if (!(error instanceof ContentError)) throw error
    const where = error.line === undefined ? '' : `, línea ${error.line}`
    return `«${PROSE_LABEL}»${where}: ${error.reason}`
  }
}

/** The build's sentence for `value` at this place, or undefined if the build takes it. */
export function fieldProblem(
  check: string,
  value: unknown,
  issues: (issue: z.core.$ZodIssue) => boolean = () => true,
) {
  const prose = PROSE_BODY.exec(check)
  if (prose) return proseProblem(prose[1]!, plain(value))
  const schema = schemaAt(check)
  if (schema === undefined) return undefined
  const data = plain(value)
  const result = schema.safeParse(data === null ? undefined : data)
  return result.success ? undefined : result.error.issues.find(issues)?.message
}

/** What the schema calls the field at this place («Columna 1»), if it names it. */
export function labelAt(check: string): string | undefined {
  const title = schemaAt(check)?.meta()?.title
  return typeof title === 'string' ? title : undefined
}

/** The longest text the schema allows at this place, if it has a limit. */
export function maxLength(check: string): number | undefined {
  const schema = schemaAt(check) as { maxLength?: number | null } | undefined
  return schema?.maxLength ?? undefined
}

/** `content/inicio.yml, hero.title: «Título principal» tiene 96 caracteres y caben 80: acórtalo`. */
export function entryProblems(path: string, data: unknown): string[] {
  const file = path.replace(/^content\//, '')
  const schema = FILE_SCHEMAS[file]
  if (schema === undefined) return []
  const fields = { ...((plain(data) ?? {}) as Record<string, unknown>) }
  // A legal text's body is Markdown, read by the build's own parser.
  const prose = file.endsWith('.md') ? proseProblem(file, fields.body) : undefined
  if (file.endsWith('.md')) delete fields.body
  const result = schema.safeParse(fields)
  const problems = prose === undefined ? [] : [`${path}, ${prose}`]
  if (result.success) return problems
  return [
    ...problems,
    ...result.error.issues.map((issue) => {
      const where = issue.path
        .map((key, index) =>
          typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`,
        )
        .join('')
      return `${path}${where ? `, ${where}` : ''}: ${issue.message}`
    }),
  ]
}
