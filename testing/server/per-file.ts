// What a server test file sets up once and undoes after itself, so that each file says it in
// one line instead of three hooks.
import { rm } from 'node:fs/promises'
import { afterAll, afterEach, beforeAll } from 'vitest'
import type { SiteBuild } from '../../server/http/site-build.js'
import { makeFakeDist, OWN_SERVER_BUILD, type FakeDist } from './fake-dist.js'

/**
 * What a test file makes before its tests and undoes after them. Its fields are read when a test
 * runs (nothing is made yet when the file is loaded).
 */
export function madeForThisFile<T extends object>(
  what: string,
  make: () => Promise<T>,
  undo: (made: T) => Promise<unknown>,
): T {
  let made: T | undefined
  beforeAll(async () => {
    made = await make()
  })
  afterAll(async () => {
    if (made) await undo(made)
  })
  return new Proxy({} as T, {
    get(_, field) {
      if (made === undefined) throw new Error(`${what} is made before the first test`)
      return made[field as keyof T]
    },
  })
}

/** A fake dist/ made before the file's tests and removed after them. */
export function fakeDistForThisFile(build: SiteBuild = OWN_SERVER_BUILD): FakeDist {
  return madeForThisFile(
    'the fake dist/',
    () => makeFakeDist(build),
    (made) => rm(made.root, { recursive: true, force: true }),
  )
}

/** What each test pushes here (closing an app, a peer, a server) is undone after it, last first. */
export function undoneAfterEach(): (() => Promise<unknown>)[] {
  const cleanups: (() => Promise<unknown>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return cleanups
}
