// The content editor's local proxy (npm run cms): Decap's own file-system handlers
// (decap-server) on a listener of their own, http://127.0.0.1:$CMS_PROXY_PORT/api/v1 (8081 by
// default; scripts/dev.mjs starts it beside the development server, in the same process), behind
// a gate that lets through only the editor's page and only files in content/.
//
// Decap's own server answers any page on localhost (its CORS allows every local origin), takes
// any Host, and reads and writes anywhere in the repository: a page on another local port, or
// one reached by DNS rebinding, could read .data/ or write a script that runs at the next npm
// command. Here a request passes only if it names the proxy's own address as its Host
// (127.0.0.1 and its port), comes from the editor's exact origin (http://127.0.0.1:$PORT, a
// page of the same site on another port), and every path it carries stays in content/ once
// normalised and resolved. CORS answers that origin only.
import { readdir, realpath } from 'node:fs/promises'
import { dirname, posix, resolve, sep } from 'node:path'
import { decapRequire } from './install.mjs'

/** The path the editor's page posts to, on the proxy's listener. */
export const PROXY_PATH = '/api/v1'

/** The largest request: an 8 MB picture, base64 encoded. */
const MAX_BODY_BYTES = 12 * 1024 * 1024

const PICTURE = /\.(svg|png)$/i
const ENTRY = /\.(yml|md)$/

/**
 * The actions the editor uses in simple publish mode, and the paths each one carries, with
 * where each may lead: `read` anywhere in content/, `entry` a .yml or .md file there,
 * `picture` an .svg or .png file in content/imagenes/.
 */
const ACTIONS = {
  info: () => [],
  getDeployPreview: () => [],
  entriesByFiles: (params) => (params.files ?? []).map((file) => ['read', file?.path]),
  entriesByFolder: (params) => [['read', params.folder]],
  getEntry: (params) => [['read', params.path]],
  getMedia: (params) => [['read', params.mediaFolder]],
  getMediaFile: (params) => [['read', params.path]],
  persistEntry: (params) => [
    ...[params.entry, ...(params.dataFiles ?? [])]
      .filter((file) => file !== undefined)
      .flatMap((file) => [
        ['entry', file?.path],
        ...(file?.newPath === undefined ? [] : [['entry', file.newPath]]),
      ]),
    ...(params.assets ?? []).map((asset) => ['picture', asset?.path]),
  ],
  persistMedia: (params) => [['picture', params.asset?.path]],
  deleteFile: (params) => [['picture', params.path]],
  deleteFiles: (params) => (params.paths ?? []).map((path) => ['picture', path]),
}

/**
 * Whether `path` (relative to the repository, as Decap sends it) names a place in content/ of
 * the kind given: written in its normal form (no `..`, `.`, `//`, backslash or hidden file),
 * and still in content/ once symbolic links are resolved.
 */
export async function isContentPath(root, path, kind = 'read') {
  if (typeof path !== 'string' || /[\\\0]/.test(path)) return false
  const clean = path.replace(/\/$/, '')
  if (posix.normalize(clean) !== clean || clean.split('/').some((part) => part.startsWith('.')))
    return false
  if (clean !== 'content' && !clean.startsWith('content/')) return false
  if (kind === 'entry' && !(ENTRY.test(clean) && !clean.startsWith('content/imagenes/')))
    return false
  if (kind === 'picture' && !(PICTURE.test(clean) && clean.startsWith('content/imagenes/')))
    return false
  const contentDir = await realpath(resolve(root, 'content'))
  // The nearest part of the path that exists, resolved: a new file's folder may not exist yet.
  let existing = resolve(root, clean)
  for (;;) {
    try {
      existing = await realpath(existing)
      break
    } catch (error) {
      if (error.code !== 'ENOENT' || dirname(existing) === existing) return false
      existing = dirname(existing)
    }
  }
  return existing === contentDir || existing.startsWith(contentDir + sep)
}

/** Decap's handlers for the repository at `root`, without its server. */
async function decapHandlers(root) {
  // registerLocalFs reads the repository's folder from the environment when it is called.
  const previous = process.env.GIT_REPO_DIRECTORY
  process.env.GIT_REPO_DIRECTORY = root
  const handlers = []
  try {
    const { registerLocalFs } = decapRequire()('decap-server/dist/middlewares.js')
    // Its CORS, logging and body parser are left out (use): the gate below replaces them.
    await registerLocalFs(
      { use() {}, post: (_path, handler) => handlers.push(handler) },
      { logLevel: 'warn' },
    )
  } finally {
    if (previous === undefined) delete process.env.GIT_REPO_DIRECTORY
    else process.env.GIT_REPO_DIRECTORY = previous
  }
  return (body) =>
    new Promise((resolveAnswer) => {
      let status = 200
      const answer = {
        status(code) {
          status = code
          return answer
        },
        json: (value) => resolveAnswer({ status, value }),
        send: (value) => resolveAnswer({ status, value: { error: String(value) } }),
      }
      const run = (index) =>
        handlers[index](body === undefined ? {} : { body }, answer, (error) =>
          error
            ? resolveAnswer({ status: 500, value: { error: 'Unknown error' } })
            : run(index + 1),
        )
      run(0)
    })
}

async function readBody(request) {
  const chunks = []
  let size = 0
  for await (const chunk of request) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Why a request is not the editor's page talking to this proxy, or undefined if it is. `gate`
 * holds the editor's origin (http://127.0.0.1:5173) and the proxy's own Host (127.0.0.1:8081).
 * The editor is on another port of the same host: the browser calls that same-site.
 */
function strangerRefusal(gate, request) {
  if (request.headers.host !== gate.host) return [403, 'Host is not the proxy’s']
  if (request.headers.origin !== gate.origin) return [403, 'Origin is not the editor’s']
  const site = request.headers['sec-fetch-site']
  if (site !== undefined && site !== 'same-site' && site !== 'same-origin')
    return [403, 'not from the editor’s page']
  const { pathname } = new URL(request.url ?? '/', 'http://proxy')
  if (pathname !== PROXY_PATH) return [404, 'not the proxy’s path']
  return undefined
}

/** Why the editor's message is refused, or undefined if it may reach Decap's handlers. */
async function messageRefusal(root, request, body) {
  if (request.method !== 'POST') return [405, 'only POST']
  if (!/^application\/json\b/.test(request.headers['content-type'] ?? '')) return [415, 'JSON only']
  if (body === undefined) return [413, 'too large']
  let message
  try {
    message = JSON.parse(body)
  } catch {
    return [400, 'not JSON']
  }
  const paths = Object.hasOwn(ACTIONS, message?.action)
    ? ACTIONS[message.action](message.params ?? {})
    : undefined
  if (paths === undefined) return [422, 'unknown action']
  for (const [kind, path] of paths)
    if (!(await isContentPath(root, path, kind)))
      return [403, `${JSON.stringify(path)} is not a ${kind} path in content/`]
  return undefined
}

/** The proxy's request handler, for the repository at `root`. */
export async function editorProxy(root) {
  const decap = await decapHandlers(root)
  /**
   * «Medios» lists the editor's picture folder, whose pictures are all in folders of their own
   * (clientes/, carrusel/, compartir/): Decap lists one level, so it found none. Its folders'
   * pictures are listed with it.
   */
  async function answer(message) {
    if (message.action !== 'getMedia') return decap(message)
    const folder = message.params.mediaFolder.replace(/\/$/, '')
    const entries = await readdir(resolve(root, folder), { withFileTypes: true }).catch(() => [])
    const folders = [
      folder,
      ...entries
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
        .map((entry) => `${folder}/${entry.name}`),
    ]
    const lists = []
    for (const mediaFolder of folders) {
      const list = await decap({ ...message, params: { ...message.params, mediaFolder } })
      if (list.status !== 200) return list
      lists.push(...list.value)
    }
    return { status: 200, value: lists }
  }
  /**
   * The request handler of the proxy's listener. `gate`: the editor's `origin` and the proxy's
   * `host` (strangerRefusal). A stranger gets a 403 and no CORS header, so its page reads
   * nothing; the editor's preflight is answered for POST with a JSON body.
   */
  return async (request, response, gate) => {
    const send = (status, value, headers = {}) =>
      response
        .writeHead(status, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
          vary: 'Origin',
          ...headers,
        })
        .end(value === undefined ? undefined : JSON.stringify(value))
    const stranger = strangerRefusal(gate, request)
    if (stranger) {
      request.resume()
      return send(stranger[0], { error: stranger[1] })
    }
    const cors = { 'access-control-allow-origin': gate.origin }
    if (request.method === 'OPTIONS') {
      request.resume()
      return send(204, undefined, {
        ...cors,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
      })
    }
    const body = request.method === 'POST' ? await readBody(request) : ''
    const refused = await messageRefusal(root, request, body)
    const { status, value } = refused
      ? { status: refused[0], value: { error: refused[1] } }
      : await answer(JSON.parse(body))
    send(status, value, cors)
  }
}
