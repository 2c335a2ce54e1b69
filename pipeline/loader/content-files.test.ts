// src/copy/content-files.d.ts is written from the schema, never by hand: TypeScript cannot
// read the plugin's `?field=` modules, so each one is declared with the type the schema gives
// it. A field added to or taken from src/copy/schema.ts fails this test until the file is
// written again: `npx vitest run pipeline/loader/content-files.test.ts -u`.
import { format, resolveConfig } from 'prettier'
import { describe, expect, it } from 'vitest'
import { contentFiles, proseFiles } from '../../src/copy/schema.ts'

const DECLARATIONS = '../../src/copy/content-files.d.ts'

const header = `// Written by pipeline/loader/content-files.test.ts from src/copy/schema.ts: do not edit.
// \`npx vitest run pipeline/loader/content-files.test.ts -u\` writes it again.
//
// The modules the content plugin (pipeline/loader/plugin.ts) makes of the files in content/,
// typed by the schema they are checked against. A YAML file's fields are imported one by one
// (\`inicio.yml?field=hero\`): a script then carries, and a build processes, only the fields it
// uses. The whole file is a module too.
/* eslint-disable @typescript-eslint/consistent-type-imports -- an ambient module cannot import */

`

const declaration = (module: string, type: string) =>
  `declare module '*/content/${module}' {\n  const value: ${type}\n  export default value\n}\n`

async function declarations(): Promise<string> {
  const blocks = Object.entries(contentFiles).flatMap(([file, schema]) => {
    const whole = `import('./schema').ContentOf<'${file}'>`
    return [
      declaration(file, whole),
      ...Object.keys(schema.shape).map((field) =>
        declaration(`${file}?field=${field}`, `${whole}['${field}']`),
      ),
    ]
  })
  const prose = proseFiles.map((file) => declaration(file, "import('./schema').ProseDocument"))
  const text = [header, ...blocks, ...prose].join('')
  const file = new URL(DECLARATIONS, import.meta.url).pathname
  return format(text, { ...(await resolveConfig(file)), filepath: file })
}

describe('src/copy/content-files.d.ts', () => {
  it('declares each content file and each of its fields with the type the schema gives it', async () => {
    await expect(await declarations()).toMatchFileSnapshot(DECLARATIONS)
  })
})
