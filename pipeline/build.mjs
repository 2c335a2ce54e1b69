// npm run build: the static site in dist/ (or BUILD_OUT_DIR) and the compiled server in build/server/.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { runnerImport } from 'vite'
import { STAMP_FILE, currentStamp } from './build-stamp.mjs'
import { prerender } from './prerender.mjs'
import { typescriptCompiler } from './typescript.mjs'

// TypeScript steps (the settings' schema, postbuild) run through Vite's module runner. It sets
// NODE_ENV to development when it is unset, which the Vite builds below would inherit (React's
// development build in the page): the variable is put back as it was.
async function load(file) {
  const nodeEnv = process.env.NODE_ENV
  try {
    const options = { configFile: false, logLevel: 'warn' }
    return (await runnerImport(join(import.meta.dirname, file), options)).module
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
  }
}

// Every build-time variable is checked before anything is written (docs/deploying.md, Configuration).
const { checkBuildSettings, readBuildSetting, parseContentEditor } = await load(
  '../src/config/build-settings.ts',
)
let editor
try {
  checkBuildSettings(process.env)
  editor = parseContentEditor(process.env)
} catch (error) {
  console.error(`The build stopped: ${error.message}`)
  process.exit(1)
}
const setting = (name) => readBuildSetting(process.env, name)

// Every content file and picture is checked before anything is built (content/LEEME.md).
const { contentProblems } = await load('loader/check.ts')
const problems = await contentProblems()
if (problems.length > 0) {
  // In Spanish, like the problems: this is what marketing reads in the host's deploy log.
  const count = problems.length === 1 ? 'un problema' : `${problems.length} problemas`
  console.error(
    `El sitio no se construyó: content/ tiene ${count} que arreglar (content/LEEME.md explica cada campo):\n` +
      problems.map((problem) => `  ${problem.message}`).join('\n'),
  )
  process.exit(1)
}

// On Cloudflare Pages or Netlify there is no intake of our own for the demo form: a build
// without the service's settings would publish a demo form that cannot send.
const staticHost = setting('CF_PAGES') ? 'Cloudflare Pages' : setting('NETLIFY') ? 'Netlify' : null
if (staticHost !== null && !setting('VITE_EMAILJS_PUBLIC_KEY')) {
  console.error(
    `Building on ${staticHost} without VITE_EMAILJS_PUBLIC_KEY: the demo form would have no ` +
      'service to send to. Set VITE_EMAILJS_PUBLIC_KEY, VITE_EMAILJS_SERVICE_ID and ' +
      "VITE_EMAILJS_TEMPLATE_ID in the host's build settings (docs/deploying.md).",
  )
  process.exit(1)
}

const outDir = setting('BUILD_OUT_DIR')
// A second, differently configured build (the e2e tests make some) needs its own server render
// directory, and can reuse the compiled server instead of rewriting it under a running test.
const ssrDir = setting('BUILD_SSR_DIR')
const compileServer = setting('BUILD_SERVER') === 'compile'
// Where the server is compiled to: a build made beside npm test's own (the host tests make one)
// uses its own copy.
const serverDir = setting('BUILD_SERVER_DIR')
// A step that fails has printed why; its exit code is enough, without this script's stack.
const run = (command, args) => {
  try {
    execFileSync(command, args, { stdio: 'inherit' })
  } catch (error) {
    process.exit(error.status ?? 1)
  }
}
const bin = (name) => `node_modules/.bin/${name}`
// Taken first: a file edited while the build runs makes the build stale, not the stamp wrong.
const stamp = currentStamp(process.env)

// tsc writes the whole tree it compiles (server/ and the src/ modules the server imports, such
// as the contract) below the folder that holds serverDir.
if (compileServer) {
  run(process.execPath, [
    typescriptCompiler(),
    '-p',
    'tsconfig.server.json',
    '--outDir',
    dirname(serverDir),
  ])
}
run(bin('vite'), ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'])
run(bin('vite'), [
  'build',
  '--ssr',
  'src/prerender.tsx',
  '--outDir',
  ssrDir,
  '--emptyOutDir',
  '--logLevel',
  'warn',
])
await prerender({ distDir: outDir, ssrDir, env: process.env })
// The content editor at /admin/, only when a Git host is set (docs/editing-content.md).
if (editor) {
  const { writeContentEditor } = await load('../editor/build.ts')
  await writeContentEditor(outDir, editor, setting('SITE_URL'))
}
// The last step shares the server's modules (headers, pages) from source, so build/server/
// holds only what the server runs.
const postbuildStep = await load('postbuild.ts')
const postbuildStarted = Date.now()
const { compressed } = await postbuildStep.postbuild(
  outDir,
  setting('NETLIFY') ? 'netlify' : 'cloudflare',
)
console.log(
  `postbuild: ${compressed.length} files precompressed (br, gz), host rules written in ` +
    `${Date.now() - postbuildStarted} ms`,
)
writeFileSync(join(outDir, STAMP_FILE), `${JSON.stringify(stamp, null, 2)}\n`)
console.log(`Built ${outDir}/ (static site) and ${serverDir}/ (production server).`)
