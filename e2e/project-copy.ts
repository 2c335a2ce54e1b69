import { cp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { startSite, type RunningSite } from '../testing/site.js'
import { waitUntil } from '../testing/wait-until.js'
import { expect } from './fixtures'

/**
 * A fresh copy of the project under build/ (ignored by git and every tool) for a test that
 * runs a development tool and edits files through it: a run stopped halfway leaves no tracked
 * file edited. The copy finds node_modules in the project above it, as Node and Vite look
 * upward for it. Not under test-results/: Vite's file watcher ignores that folder, so an edit
 * there would never show.
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
    for (const entry of entries) await cp(entry, join(this.root, entry), { recursive: true })
  }

  /** Starts one of the copy's scripts; resolves with the origin it prints once it listens. */
  async start(script: string, env: Record<string, string>): Promise<string> {
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

  /** Edits a file; returns its text before the edit. */
  async edit(file: string, change: (text: string) => string): Promise<string> {
    const original = await this.read(file)
    const edited = change(original)
    expect(edited, `the edit changes ${file}`).not.toBe(original)
    await this.save(file, edited)
    return original
  }
}
