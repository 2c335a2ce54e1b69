import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import react from '@vitejs/plugin-react'
import { build } from 'vite'
import { content } from '../pipeline/loader/plugin.ts'
import { buildConstants, type ContentEditorConfig } from '../src/config/build-settings.ts'
import { cmsConfig } from './config.ts'
import { decapRequire } from './install.mjs'

/**
 * Writes the content editor into the build at /admin/ (CMS_GIT_HOST): its page, Decap CMS's
 * prebuilt bundle, the module that writes YAML in place and checks each field, the preview
 * (the site's sections, their pictures inlined, and their stylesheet, preview.css), and its
 * configuration for the Git host. The servers give it a policy of its own
 * (server/http/security-headers.ts), which these files keep to: scripts and the stylesheet from
 * /admin/ itself, inline styles, pictures as data: URIs.
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
    base: '/admin/',
    // The site's own plugins and build constants: the preview renders its sections.
    plugins: [content(), react()],
    define: { ...buildConstants(process.env), 'process.env.NODE_ENV': '"production"' },
    build: {
      lib: {
        entry: join(here, 'formats.ts'),
        formats: ['es'],
        fileName: () => 'formats.js',
        cssFileName: 'preview',
      },
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
