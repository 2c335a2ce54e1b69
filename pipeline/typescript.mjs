// The compiler that checks and builds this project: TypeScript 7, the native one (the npm alias
// `typescript-native` of typescript@7), five to ten times quicker than 5.9 on the same files.
// The `typescript` package (5.9) stays for the tools that need TypeScript's JavaScript API,
// which 7 does not offer yet: typescript-eslint's parser and knip. Both packages install a bin
// named `tsc`, so nothing here calls `tsc` by name: always this path (decision 028).
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** The path of TypeScript 7's `tsc`, or null where dev dependencies are not installed. */
export function typescriptCompiler() {
  try {
    // Its package exports no bin/ path: found beside its package.json.
    const manifest = createRequire(import.meta.url).resolve('typescript-native/package.json')
    return join(dirname(manifest), 'bin', 'tsc')
  } catch {
    return null
  }
}
