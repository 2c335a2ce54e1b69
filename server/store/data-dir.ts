// The data folder belongs to one server at a time. Two servers writing one SQLite store cannot
// keep each other's promises: each knows only its own idea of the file's size, so an undo by
// one can cut off requests the other already answered 200 for. The server therefore checks at
// start that DATA_DIR is a folder it can write, and holds an exclusive lock on it
// (proper-lockfile: an atomic mkdir, kept fresh while the process lives) until it exits.
// A second server on the same folder refuses to start and says which process holds it.
//
// The folder holds personal data: it is made 0700 and its files 0600, whatever the umask, so no
// other user of the machine can read a request. A folder someone made wider is left as it is
// (a backup user may need it) but said at start.
import { constants } from 'node:fs'
import { access, chmod, mkdir, open, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import lockfile from 'proper-lockfile'

const LOCK_DIR = '.server.lock'
const OWNER_FILE = '.server-owner.json'
/** How long a lock nobody refreshes stays valid: a server killed with -9 frees it after this. */
const STALE_MS = 10_000

export class DataDirError extends Error {
  override name = 'DataDirError'
}

interface Owner {
  pid: number
  hostname: string
  startedAt: string
}

const errnoCode = (error: unknown): string | undefined =>
  (error as NodeJS.ErrnoException | null)?.code

/** One line an operator can act on, for a folder the server cannot use. */
function unusable(dataDir: string, error: unknown): DataDirError {
  const { code, path } = (error ?? {}) as NodeJS.ErrnoException
  const reasons: Record<string, string> = {
    EROFS: 'it is on a read-only file system',
    EACCES: `this user (uid ${process.getuid?.() ?? '?'}) may not write there`,
    EPERM: `this user (uid ${process.getuid?.() ?? '?'}) may not write there`,
    ENOTDIR: 'it, or a folder above it, is a file',
    EEXIST: 'it, or a folder above it, is a file',
    EISDIR: `${path ?? 'a file it needs'} is a folder, not a file`,
    ENOSPC: 'its disk is full',
  }
  const why =
    (code !== undefined ? reasons[code] : undefined) ??
    (error instanceof Error ? error.message : String(error))
  return new DataDirError(
    `DATA_DIR ${dataDir} cannot hold the demo requests: ${why}. ` +
      'Point DATA_DIR at a folder this user can write.',
  )
}

/** Why a folder that could not be made cannot: the nearest folder above it that exists says. */
async function whyNotMade(dir: string, error: unknown): Promise<unknown> {
  if (errnoCode(error) !== 'ENOENT') return error
  for (let parent = dirname(dir); ; parent = dirname(parent)) {
    try {
      await access(parent, constants.W_OK | constants.X_OK)
    } catch (cause) {
      if (errnoCode(cause) !== 'ENOENT') return cause
    }
    if (parent === dirname(parent)) return error
  }
}

/** The data folder's mode: its owner alone reads, writes and enters it. */
const PRIVATE_DIR = 0o700
/** The mode of each file of personal data in it. */
const PRIVATE_FILE = 0o600

/**
 * Creates the folder if needed (0700, whatever the umask; the folders above it as the umask
 * says) and proves it is a folder this process can write, and that each of `files` in it can be
 * opened for appending (created 0600 if missing). Resolves to the folder's mode when others may
 * read or enter it (someone made it so), or null.
 */
async function checkWritable(
  dataDir: string,
  files: readonly string[] = [],
): Promise<number | null> {
  try {
    await mkdir(dirname(dataDir), { recursive: true })
      .then(() => mkdir(dataDir, { mode: PRIVATE_DIR }))
      // The umask may take bits off the mode mkdir was given, never add: set it whole.
      .then(() => chmod(dataDir, PRIVATE_DIR))
      .catch(async (error: unknown) => {
        if (errnoCode(error) === 'EEXIST') return
        throw await whyNotMade(dataDir, error)
      })
    const folder = await stat(dataDir)
    if (!folder.isDirectory()) {
      throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' })
    }
    // access() answers EROFS and EACCES without writing anything.
    await access(dataDir, constants.W_OK | constants.X_OK)
    for (const file of files) await (await open(join(dataDir, file), 'a', PRIVATE_FILE)).close()
    const mode = folder.mode & 0o777
    return (mode & 0o077) === 0 ? null : mode
  } catch (error) {
    throw unusable(dataDir, error)
  }
}

async function readOwner(dataDir: string): Promise<Owner | null> {
  try {
    const owner = JSON.parse(await readFile(join(dataDir, OWNER_FILE), 'utf8')) as Owner
    return typeof owner.pid === 'number' ? owner : null
  } catch {
    return null
  }
}

/** True only when the owner is certainly gone: a process of this machine that no longer runs. */
function ownerIsGone(owner: Owner): boolean {
  if (owner.hostname !== hostname()) return false
  // A container's server is often pid 1 after every restart: a lock recorded by "us" is not ours.
  if (owner.pid === process.pid) return true
  try {
    process.kill(owner.pid, 0)
    return false
  } catch (error) {
    return errnoCode(error) === 'ESRCH'
  }
}

const describeOwner = (owner: Owner | null): string =>
  owner === null
    ? 'another process'
    : `process ${owner.pid} on ${owner.hostname}, started ${owner.startedAt}`

export interface DataDirLock {
  /** The folder's mode when other users may read or enter it (made so by hand), or null. */
  openToOthers: number | null
  /** Lets the folder go (the owner note first, then the lock). */
  release(): Promise<void>
}

/**
 * Takes the folder for this process, or throws a DataDirError naming the process that has it.
 * `onLost` runs if the lock is taken away while the server runs (its folder was deleted, or the
 * process stalled longer than the lock stays fresh): the server must stop writing then.
 */
export async function lockDataDir(
  dataDir: string,
  { files = [], onLost }: { files?: readonly string[]; onLost: (error: Error) => void },
): Promise<DataDirLock> {
  await checkWritable(dataDir)
  const options = {
    lockfilePath: join(dataDir, LOCK_DIR),
    realpath: false,
    stale: STALE_MS,
    retries: 0,
    onCompromised: onLost,
  }
  let release: () => Promise<void>
  try {
    release = await lockfile.lock(dataDir, options)
  } catch (error) {
    if (errnoCode(error) !== 'ELOCKED') throw unusable(dataDir, error)
    const owner = await readOwner(dataDir)
    if (owner === null || !ownerIsGone(owner)) {
      throw new DataDirError(
        `DATA_DIR ${dataDir} is in use by ${describeOwner(owner)}. Only one server may write ` +
          'its store: stop that one first, or give this one its own DATA_DIR.',
      )
    }
    // Its owner was killed without letting go (kill -9, a crash): waiting for it to go stale
    // would only delay a supervisor's restart.
    await rm(options.lockfilePath, { recursive: true, force: true })
    release = await lockfile.lock(dataDir, options)
  }
  // Only its owner may create files: a second server must not have touched them.
  const openToOthers = await checkWritable(dataDir, files)
  const owner: Owner = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
  }
  await writeFile(join(dataDir, OWNER_FILE), `${JSON.stringify(owner)}\n`)
  return {
    openToOthers,
    async release() {
      await rm(join(dataDir, OWNER_FILE), { force: true })
      await release().catch(() => undefined)
    },
  }
}
