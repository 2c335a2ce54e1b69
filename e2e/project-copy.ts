import { cp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import { installEditor } from '../editor/install.mjs'
import { startSite, type RunningSite } from '../testing/site.js'
import { waitUntil } from '../testing/wait-until.js'
import { expect, test } from './fixtures'

/**
 * A fresh copy of the project under build/ (ignored by git and every tool) for a test that
 * runs a development tool and edits files through it: a run stopped halfway leaves no tracked
 * file edited. The copy finds node_modules in the project above it, as Node and Vite look
 * upward for it; the editor's own packages (editor/node_modules) are linked, never copied. Not
 * under test-results/: Vite's file watcher ignores that folder, so an edit there would never
 * show.
 */
export class ProjectCopy {
  readonly root: string
  private site: RunningSite | undefined

  constructor(name: string) {
    this.root = resolve('build', name)
  }

  async create(): Promise<void> {
    await rm(this.root, { recursive: true, force: true })
    const entries = [
      ...['index.html', 'tyc.html', 'public', 'src', 'content', 'pipeline', 'editor'],
      ...['server', 'scripts', 'vite.config.ts', 'tsconfig.json', 'tsconfig.base.json'],
    ]
    for (const entry of entries)
      await cp(entry, join(this.root, entry), {
        recursive: true,
        filter: (source) => basename(source) !== 'node_modules',
      })
  }

  /**
   * Starts one of the copy's scripts; resolves with the origin it prints once it listens. An
   * editor's script finds the project's own editor/node_modules, installed first if need be.
   */
  async start(script: string, env: Record<string, string>): Promise<string> {
    if (script.startsWith('editor/')) {
      // A ceiling, not a timing: the first run installs the editor's packages, over a minute
      // on a loaded machine, inside the calling hook.
      test.setTimeout(test.info().timeout + 300_000)
      installEditor()
      await rm(join(this.root, 'editor/node_modules'), { force: true })
      await symlink(resolve('editor/node_modules'), join(this.root, 'editor/node_modules'))
    }
    this.site = await startSite({ host: 'dev', root: this.root, script, env })
    return this.site.origin
  }

  /** Resolves with the first group of `pattern` once the running script has printed it. */
  printed(pattern: RegExp): Promise<string> {
    const site = this.site!
    const output = () => site.lines.join('\n')
    return waitUntil(() => pattern.exec(output())?.[1], {
      what: `the development server prints ${pattern}`,
      giveUpIf: () => {
        const exit = site.exit()
        return exit === undefined ? undefined : `it exited with ${exit.code ?? exit.signal}`
      },
      details: output,
    })
  }

  async stop(): Promise<void> {
    await this.site?.stop()
  }

  read(file: string): Promise<string> {
    return readFile(join(this.root, file), 'utf8')
  }

  /** Saves a file as editors do, in one step: a watcher never sees it half written. */
  async save(file: string, text: string): Promise<void> {
    const path = join(this.root, file)
    await writeFile(`${path}.saving`, text)
    await rename(`${path}.saving`, path)
  }

  /**
   * Saves a file, and saves it again while `shown` fails. The development server's watcher
   * misses, now and then (1 run in 4 here), a save that comes tens of milliseconds after the
   * last one it reported, as a test's restore does and a person's never does: the page must
   * follow the file, not that watcher's timing.
   */
  async saveUntil(file: string, text: string, shown: () => Promise<void>): Promise<void> {
    await expect(async () => {
      await this.save(file, text)
      await shown()
    }).toPass({ timeout: 30_000 })
  }

  /** Edits a file; returns its text before the edit. */
  async edit(file: string, change: (text: string) => string): Promise<string> {
    const original = await this.read(file)
    const edited = change(original)
    expect(edited, `the edit changes ${file}`).not.toBe(original)
    await this.save(file, edited)
    return original
  }
}
