/**
 * The kinds of file the build stores beside a .br and a .gz copy (pipeline/postbuild.ts), and
 * the server therefore answers from those copies instead of compressing at request time.
 */
export const COMPRESSIBLE: ReadonlySet<string> = new Set([
  '.html',
  '.css',
  '.js',
  '.mjs',
  '.map',
  '.svg',
  '.xml',
  '.txt',
  '.json',
  '.webmanifest',
  '.ico',
])
