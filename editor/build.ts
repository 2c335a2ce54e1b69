import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { build } from 'vite'
import type { ContentEditorConfig } from '../src/config/build-settings.ts'
import { cmsConfig } from './config.ts'
import { decapRequire } from './install.mjs'

/**
 * Writes the content editor into the build at /admin/ (CMS_GIT_HOST): its page, Decap CMS's
 * prebuilt bundle, the module that writes YAML in place, and its configuration for the Git
 * host. The servers give it a policy of its own (server/security-headers.ts).
 */
export async function writeContentEditor(
  distDir: string,
  editor: ContentEditorConfig,
  siteUrl: string,
): Promise<void> {
  const folder = join(distDir, 'admin')
  await mkdir(folder, { recursive: true })
  const here = import.meta.dirname
  await copyFile(join(here, 'index.html'), join(folder, 'index.html'))
  await copyFile(join(here, 'manual-init.js'), join(folder, 'manual-init.js'))
  await copyFile(join(here, 'logo.svg'), join(folder, 'logo.svg'))
  await copyFile(decapRequire().resolve('decap-cms'), join(folder, 'decap-cms.js'))
  await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      lib: { entry: join(here, 'formats.ts'), formats: ['es'], fileName: () => 'formats.js' },
      outDir: folder,
      emptyOutDir: false,
      copyPublicDir: false,
      minify: true,
    },
  })
  await writeFile(
    join(folder, 'config.yml'),
    cmsConfig({ kind: 'git-host', ...editor.backend }, siteUrl),
  )
}
