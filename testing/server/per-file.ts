// What a server test file sets up once and undoes after itself, so that each file says it in
// one line instead of three hooks.
import { rm } from 'node:fs/promises'
import { afterAll, afterEach, beforeAll } from 'vitest'
import type { SiteBuild } from '../../server/http/site-build.js'
import { makeFakeDist, OWN_SERVER_BUILD, type FakeDist } from './fake-dist.js'

/**
 * A fake dist/ made before the file's tests and removed after them. Its fields are read when a
 * test runs (the folder does not exist yet when the file is loaded).
 */
export function fakeDistForThisFile(build: SiteBuild = OWN_SERVER_BUILD): FakeDist {
  let made: FakeDist | undefined
  beforeAll(async () => {
    made = await makeFakeDist(build)
  })
  afterAll(async () => {
    if (made) await rm(made.root, { recursive: true, force: true })
  })
  const current = (): FakeDist => {
    if (made === undefined) throw new Error('the fake dist/ is made before the first test')
    return made
  }
  return {
    get root() {
      return current().root
    },
    get dist() {
      return current().dist
    },
    get files() {
      return current().files
    },
    get asset() {
      return current().asset
    },
  }
}

/** What each test pushes here (closing an app, a peer, a server) is undone after it, last first. */
export function undoneAfterEach(): (() => Promise<unknown>)[] {
  const cleanups: (() => Promise<unknown>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return cleanups
}
