import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { Plugin } from 'vite'
import { contentFiles, ImageReference, proseFiles } from '../../src/copy/schema.ts'
import { ContentError, fieldPath } from './content-error.ts'
import { ImageProblem, processImage } from './images.ts'
import { checkContentFile, CONTENT_DIR, parseProseFile, type ContentFileName } from './read.ts'

const FIELD_QUERY = 'field='

const isContentFile = (name: string): name is ContentFileName => name in contentFiles
const isProseFile = (name: string) => (proseFiles as readonly string[]).includes(name)

/**
 * Makes the files in content/ importable, checked: `import hero from
 * '../../content/inicio.yml?field=hero'`, `import terms from '../../content/terminos.md'`. A
 * file that breaks its schema fails the build, and shows the dev server's overlay, with its
 * ContentError naming the file, line and field.
 *
 * Each top-level field of a YAML file is a module of its own: a script carries, and a build
 * processes, only the fields its code imports. The whole file (`tyc.yml`) is a module too.
 */
export function content({
  /** Where the files are read from; the tests point it at a folder of their own. */
  directory = CONTENT_DIR,
}: { directory?: string } = {}): Plugin {
  return {
    name: 'content',
    async load(id) {
      const [path, query = ''] = id.split('?')
      if (!path!.startsWith(CONTENT_DIR)) return null
      const name = basename(path!)
      const file = join(directory, name)
      this.addWatchFile(file)
      try {
        if (isProseFile(name) && query === '')
          return `export default ${JSON.stringify(parseProseFile(name, readFileSync(file, 'utf8')))}`
        if (!isContentFile(name)) return null
        const checked = checkContentFile(name, readFileSync(file, 'utf8'))
        const data = checked.data as Record<string, unknown>
        const field = query.startsWith(FIELD_QUERY)
          ? decodeURIComponent(query.slice(FIELD_QUERY.length))
          : undefined
        const fail = (at: (string | number)[], reason: string): never => {
          throw new ContentError(`content/${name}`, checked.lineAt(at), fieldPath(at), reason)
        }
        if (field === undefined) return await fieldModule(data, [], fail, directory)
        if (!(field in data)) throw new Error(`content/${name} has no field "${field}" to import`)
        return await fieldModule(data[field], [field], fail, directory)
      } catch (error) {
        if (!(error instanceof ContentError)) throw error
        // The sentence alone: a stack through the plugin would bury it.
        const failure = new Error(error.message)
        failure.stack = error.message
        this.error(failure)
      }
    },
  }
}

/** A field as an ES module: its pictures imported as files Vite serves, with their sizes. */
async function fieldModule(
  value: unknown,
  path: (string | number)[],
  fail: (at: (string | number)[], reason: string) => never,
  directory: string,
) {
  const imports: string[] = []
  const pictures = new Map<string, string>()
  const walk = async (node: unknown, at: (string | number)[]): Promise<unknown> => {
    if (node instanceof ImageReference) {
      let processed
      try {
        processed = await processImage(node, directory)
      } catch (error) {
        if (!(error instanceof ImageProblem)) throw error
        fail(at, error.message)
      }
      // A picture served as a file of its own is copied beside the pages by the build.
      if (node.exactSize) return processed
      const variable = `picture${imports.length}`
      imports.push(`import ${variable} from ${JSON.stringify(`${processed.file}?url`)}`)
      const token = `\u0000${variable}\u0000`
      pictures.set(JSON.stringify(token), variable)
      return { src: token, width: processed.width, height: processed.height }
    }
    if (Array.isArray(node))
      return Promise.all(node.map((item, index) => walk(item, [...at, index])))
    if (node && typeof node === 'object')
      return Object.fromEntries(
        await Promise.all(
          Object.entries(node).map(async ([key, item]) => [key, await walk(item, [...at, key])]),
        ),
      )
    return node
  }
  let json = JSON.stringify(await walk(value, path))
  for (const [token, variable] of pictures) json = json.replace(token, variable)
  return `${imports.join('\n')}\nexport default ${json}`
}
