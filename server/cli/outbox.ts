// `npm run outbox`: the sales team's commands, in Spanish. Alone it lists the stored demo
// requests newest first, each with how its deliveries went; `--xlsx > solicitudes.xlsx` exports
// them as a spreadsheet and `--csv > solicitudes.csv` as CSV (oldest first); `--failed` lists the
// dead letters, `--resend ID` and `--resend-failed` send them again; `--json` prints every request
// as JSON Lines for scripts; `--import FILE` brings in an older server's outbox.jsonl. Requests
// held during a flood are listed apart (`--held` alone), and `--release ID`, `--release-held`
// or `--erase-held` decide what becomes of them.
// For a person's access or erasure request (ARCO, GDPR): `--export PERSON` prints every request
// of one e-mail address or phone number as JSON (`--xlsx`: a spreadsheet), `--erase PERSON|ID`
// shows what will go, asks, and erases it for good (`--yes`: without asking), and `--erasures`
// lists the record of erasures, which holds no personal data.
// It reads the server's own store (SQLite in DATA_DIR, default <repo>/.data, or PostgreSQL when
// DATABASE_URL is set), also while the server runs, in pages: memory stays flat. It runs from the
// build (scripts/outbox.mjs) with no dev dependencies. This module reads the arguments and the
// configuration and runs the command; the listings are listing.ts's, a person's requests
// person-commands.ts's, the spreadsheet and CSV xlsx.ts's and csv.ts's. The spreadsheet's
// library is loaded only for a spreadsheet: it is half of every other command's start.
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { SettingError } from '../../src/config/env-settings.js'
import { readConfig, type ServerConfig } from '../settings/index.js'
import { SQLITE_FILE, StoreError, openLeadStore } from '../store/index.js'
import { DemoRequests } from '../demo-requests/index.js'
import { writeCsv } from './csv.js'
import { OUTBOX_FILE, importOutboxFile, takeInDataDirOutbox } from '../store/index.js'
import { visibleControls } from '../text/index.js'
import { ChunkedOutput, stdoutHoldsNpmBanner, stdoutSink } from './output.js'
import { solicitudes, writeListing, writeJsonLines } from './listing.js'
import { exportPerson, erase, listErasures, warnIfLeftInWal } from './person-commands.js'

const USAGE = [
  'uso: npm run outbox                  las solicitudes de demo guardadas, de la más reciente a la',
  '                                     más antigua, con cómo va el envío de cada una',
  '     npm run outbox -- --xlsx > solicitudes.xlsx',
  '                                     una hoja de cálculo (cada celda como texto, las más antiguas primero)',
  '     npm run outbox -- --csv > solicitudes.csv',
  '                                     CSV (UTF-8, las más antiguas primero)',
  '     npm run outbox -- --failed      solo las que no se pudieron entregar',
  '     npm run outbox -- --resend ID   vuelve a enviar los envíos fallidos de una solicitud',
  '     npm run outbox -- --resend-failed',
  '                                     vuelve a enviar todos los envíos fallidos',
  '     npm run outbox -- --held        solo las retenidas: llegaron durante una avalancha de',
  '                                     solicitudes y no se envían hasta que alguien lo decida',
  '     npm run outbox -- --release ID  envía una solicitud retenida',
  '     npm run outbox -- --release-held',
  '                                     envía todas las retenidas',
  '     npm run outbox -- --erase-held  borra para siempre todas las retenidas',
  '     npm run outbox -- --json        todas, como JSON Lines, para scripts',
  '     npm run outbox -- --import outbox.jsonl',
  '                                     importa el outbox.jsonl de un servidor anterior (por id)',
  '     npm run outbox -- --export PERSONA > datos.json',
  '                                     todas las solicitudes de una persona (su correo o su teléfono),',
  '                                     en JSON; con --xlsx, en hoja de cálculo',
  '     npm run outbox -- --erase PERSONA|ID',
  '                                     muestra sus solicitudes, pregunta y las borra para siempre con',
  '                                     sus envíos (--yes: sin preguntar)',
  '     npm run outbox -- --erasures    los borrados hechos: cuándo, cuántas y por qué, sin datos personales',
].join('\n')
/** The commands and what they take, as node:util's parseArgs reads them. */
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  csv: { type: 'boolean' },
  xlsx: { type: 'boolean' },
  failed: { type: 'boolean' },
  'resend-failed': { type: 'boolean' },
  json: { type: 'boolean' },
  held: { type: 'boolean' },
  'release-held': { type: 'boolean' },
  'erase-held': { type: 'boolean' },
  erasures: { type: 'boolean' },
  yes: { type: 'boolean' },
  resend: { type: 'string' },
  import: { type: 'string' },
  release: { type: 'string' },
  export: { type: 'string' },
  erase: { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>

type Parsed = { flags: Set<string>; values: Map<string, string> } | string

/**
 * The command line as flags (`--csv`) and values (`--resend` → ID), or why it cannot be run.
 * parseArgs reads it leniently, so that each mistake is told in Spanish here.
 */
function readArguments(argv: readonly string[]): Parsed {
  const { tokens } = parseArgs({
    args: [...argv],
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  })
  const flags = new Set<string>()
  const values = new Map<string, string>()
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue
    if (token.kind === 'positional') {
      return `no sé qué hacer con «${visibleControls(token.value)}»: cada opción empieza por --`
    }
    const option = Object.hasOwn(OPTIONS, token.name)
      ? OPTIONS[token.name as keyof typeof OPTIONS]
      : undefined
    const name = `--${token.name}`
    if (option === undefined) return `opción desconocida ${visibleControls(token.rawName)}`
    if (option.type === 'boolean') {
      if (token.value !== undefined) return `${name} no lleva valor`
      flags.add(name)
    } else {
      // Without `=`, parseArgs takes the next argument whatever it is: `--resend --csv`.
      const value = token.value
      if (value === undefined || (token.inlineValue !== true && value.startsWith('--'))) {
        return `a ${name} le falta su valor`
      }
      values.set(name, value)
    }
  }
  if (flags.has('--yes') && !values.has('--erase')) return '--yes solo acompaña a --erase'
  // --xlsx shapes an export, --yes an erasure: neither is a second command then.
  const chosen = [...flags, ...values.keys()].filter(
    (arg) => arg !== '--help' && arg !== '--yes' && !(arg === '--xlsx' && values.has('--export')),
  )
  if (chosen.length > 1) return `elige una sola de ${chosen.join(' y ')}`
  return { flags, values }
}

/**
 * The server's demo requests, in its store (SQLite in DATA_DIR, or PostgreSQL), without a
 * worker: what the command line releases or re-sends, the running server delivers.
 */
async function openRequests(config: ServerConfig): Promise<DemoRequests> {
  // The CLI writes only the deliveries it re-sends: the cap is the server's to keep.
  const store = await openLeadStore(
    { dataDir: config.dataDir, databaseUrl: config.databaseUrl },
    { maxBytes: config.outboxMaxBytes, largestRecordBytes: 0 },
  )
  return DemoRequests.delivering(store, config.delivery, null)
}

/** Whether there is a store to read: none in DATA_DIR means nothing was stored yet. */
const storeExists = (config: ServerConfig): boolean =>
  config.databaseUrl !== undefined || existsSync(join(config.dataDir, SQLITE_FILE))

/**
 * `--release ID` and `--release-held` let held requests go (the server sends them within
 * seconds); `--erase-held` erases them. Resolves to the exit code.
 */
async function decideOnHeld(
  store: DemoRequests | null,
  release: string | undefined,
  erase: boolean,
): Promise<number> {
  if (store === null) {
    console.error('outbox: todavía no hay solicitudes guardadas')
    return 1
  }
  if (erase) {
    const erased = await store.eraseHeld()
    const { requests } = erased
    console.log(
      requests === 0
        ? 'No había solicitudes retenidas.'
        : `${requests === 1 ? '1 solicitud retenida borrada' : `${requests} solicitudes retenidas borradas`} para siempre.`,
    )
    warnIfLeftInWal(erased)
    return 0
  }
  if (release !== undefined) {
    const request = await store.request(release)
    if (request === null) {
      console.error(`outbox: no hay ninguna solicitud con el id ${release}`)
      return 1
    }
    if (!request.held) {
      console.error(`outbox: la solicitud ${release} no está retenida`)
      return 1
    }
  }
  const released = await store.release(release)
  console.log(
    released === 0
      ? 'No había solicitudes retenidas.'
      : released === 1
        ? '1 solicitud liberada: el servidor la envía en unos segundos, como cualquier otra.'
        : `${released} solicitudes liberadas: el servidor las envía en unos segundos, como cualquier otra.`,
  )
  return 0
}

/** Runs the CLI; resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const parsed = readArguments(argv)
  if (typeof parsed === 'string') {
    console.error(`outbox: ${parsed}\n${USAGE}`)
    return 2
  }
  const { flags, values } = parsed
  if (flags.has('--help')) {
    console.log(USAGE)
    return 0
  }
  if (flags.has('--xlsx') && process.stdout.isTTY) {
    console.error('outbox: --xlsx escribe un archivo: npm run outbox -- --xlsx > solicitudes.xlsx')
    return 2
  }
  // A reader that stops early (| head) is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0)
    throw error
  })

  let store: DemoRequests | null = null
  try {
    // Built, this file is build/server/cli/outbox.js: the repository is three folders up.
    const config = readConfig(process.env, fileURLToPath(new URL('../../../', import.meta.url)))
    const { delivery } = config
    const { timeZone } = delivery
    const importing = values.get('--import')
    if (importing !== undefined) {
      store = await openRequests(config)
      const file = resolve(importing)
      if (!existsSync(file)) {
        console.error(`outbox: no existe ${file}`)
        return 1
      }
      const { read, imported, unreadable } = await importOutboxFile(store.store, file)
      const torn =
        unreadable > 0
          ? `; ${unreadable} ${unreadable === 1 ? 'línea ilegible omitida' : 'líneas ilegibles omitidas'}`
          : ''
      console.error(
        `outbox: ${imported} de ${read} solicitudes importadas de ${file} a ${store.location} ` +
          `(las demás ya estaban)${torn}; el archivo queda como estaba`,
      )
      return 0
    }
    const person = values.get('--export') ?? values.get('--erase')
    // An older server's outbox.jsonl that this version's server has not taken in yet (it does at
    // start): taken in now, so that an export or an erasure reaches its requests (decision 022).
    const older = join(config.dataDir, OUTBOX_FILE)
    if (person !== undefined && existsSync(older)) {
      store = await openRequests(config)
      const taken = await takeInDataDirOutbox(store.store, config.dataDir)
      if (taken !== null) {
        console.error(
          `outbox: ${taken.imported} de ${taken.read} solicitudes importadas de ${older}, que dejó ` +
            `un servidor anterior; ${taken.removed ? 'el archivo ya no existe' : `quedan en él solo sus ${taken.unreadable} líneas ilegibles`}`,
        )
      }
    }
    store ??= storeExists(config) ? await openRequests(config) : null
    if (person !== undefined || flags.has('--erasures')) {
      if (values.has('--export')) {
        return await exportPerson(store, person!, flags.has('--xlsx'), timeZone)
      }
      if (person !== undefined) {
        return await erase(store, person, flags.has('--yes'), config.dataDir, config.delivery)
      }
      return await listErasures(store, timeZone)
    }
    const resend = values.get('--resend')
    if (resend !== undefined || flags.has('--resend-failed')) {
      if (store === null) {
        console.error('outbox: todavía no hay solicitudes guardadas')
        return 1
      }
      if (resend !== undefined && (await store.request(resend)) === null) {
        console.error(`outbox: no hay ninguna solicitud con el id ${resend}`)
        return 1
      }
      const queued = await store.resendFailed(resend)
      console.log(
        queued === 0
          ? 'No había envíos fallidos que reenviar.'
          : `${queued} ${queued === 1 ? 'envío vuelve' : 'envíos vuelven'} a la cola: el servidor ` +
              'los manda en unos segundos y los reintenta hasta tres días.',
      )
      return 0
    }
    const release = values.get('--release')
    if (release !== undefined || flags.has('--release-held') || flags.has('--erase-held')) {
      return await decideOnHeld(store, release, flags.has('--erase-held'))
    }
    if (store === null) {
      if (flags.has('--json')) return 0
      if (flags.has('--xlsx') || flags.has('--csv')) {
        console.error('outbox: todavía no hay solicitudes guardadas')
        return 1
      }
      console.log(
        `Todavía no hay solicitudes de demo guardadas (en ${join(config.dataDir, SQLITE_FILE)}).`,
      )
      return 0
    }
    if (flags.has('--xlsx')) {
      const { writeXlsx } = await import('./xlsx.js')
      const count = await writeXlsx(store, stdoutSink(stdoutHoldsNpmBanner()), timeZone)
      console.error(`outbox: ${solicitudes(count)} exportadas de ${store.location}`)
    } else if (flags.has('--csv')) {
      const output = new ChunkedOutput(stdoutSink(stdoutHoldsNpmBanner()))
      const count = await writeCsv(store, (text) => output.write(text))
      await output.flush()
      console.error(`outbox: ${solicitudes(count)} exportadas de ${store.location}`)
    } else if (flags.has('--json')) {
      await writeJsonLines(store, new ChunkedOutput(stdoutSink(false)))
    } else {
      await writeListing(
        store,
        new ChunkedOutput(stdoutSink(false)),
        timeZone,
        flags.has('--failed') ? 'failed' : flags.has('--held') ? 'held' : null,
      )
    }
  } catch (error) {
    const known = error instanceof StoreError || error instanceof SettingError
    console.error(
      `outbox: ${known || !(error instanceof Error) ? String(error instanceof Error ? error.message : error) : error.message}`,
    )
    return 1
  } finally {
    await store?.stop()
  }
  return 0
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2))
}
