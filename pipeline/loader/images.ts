import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import sharp from 'sharp'
import { optimize, type CustomPlugin } from 'svgo'
import { IMAGE_FOLDER, type ImageReference } from '../../src/copy/schema.ts'
import { CONTENT_DIR } from './read.ts'

/**
 * Larger than this is not a logo or an illustration; usually a photo exported by mistake.
 * @internal the tests make a file just over each
 */
export const MAX_SVG_BYTES = 200_000
const MAX_RASTER_BYTES = 8_000_000

/** A picture ready for the page: the file to serve and the size the HTML gives it. */
type ProcessedImage = {
  readonly file: string
  readonly width: number
  readonly height: number
}

/** Why a picture cannot go on the page; the caller names the file, line and field. */
export class ImageProblem extends Error {}

const CACHE_DIR = join(CONTENT_DIR, '..', 'node_modules', '.cache', 'content-images')

const REFERENCE_ATTRIBUTES = ['href', 'xlink:href', 'src']

/**
 * Removes what could reach outside the file: links and images to other addresses, embedded
 * HTML, and url(…) or @import in styles. An `<img>` loads none of these anyway; removing them
 * keeps a file that is opened directly just as inert.
 */
const removeExternalReferences: CustomPlugin = {
  name: 'removeExternalReferences',
  fn: () => ({
    element: {
      enter: (node, parent) => {
        if (node.name === 'foreignObject') {
          parent.children = parent.children.filter((child) => child !== node)
          return
        }
        node.attributes = Object.fromEntries(
          Object.entries(node.attributes).filter(
            ([name, value]) => !REFERENCE_ATTRIBUTES.includes(name) || value.trim().startsWith('#'),
          ),
        )
        const style = node.attributes.style
        if (style !== undefined && /url\(|@import/i.test(style)) delete node.attributes.style
        if (node.name === 'style')
          node.children = node.children.filter(
            (child) => !('value' in child && /url\(\s*['"]?(?!#)|@import/i.test(child.value)),
          )
      },
    },
  }),
}

/**
 * An SVG without scripts, event handlers or outside references, minified.
 * @internal the tests feed it hostile files
 */
export function cleanSvg(source: string): string {
  return optimize(source, {
    multipass: true,
    plugins: ['preset-default', 'removeScripts', removeExternalReferences],
  }).data
}

function svgSize(svg: string): { width: number; height: number } | undefined {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? ''
  const attribute = (name: string) =>
    new RegExp(`\\s${name}=["']\\s*([\\d.]+)(px)?\\s*["']`).exec(root)?.[1]
  const width = Number(attribute('width'))
  const height = Number(attribute('height'))
  if (width > 0 && height > 0) return { width, height }
  const viewBox = /\sviewBox=["']\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(root)
  if (viewBox) return { width: Number(viewBox[1]), height: Number(viewBox[2]) }
  return undefined
}

const digest = (...parts: (string | Buffer)[]) => {
  const hash = createHash('sha256')
  for (const part of parts) hash.update(part)
  return hash.digest('hex').slice(0, 16)
}

/** Writes a processed picture into the cache once; the same source is not processed again. */
function cached(name: string, key: string, make: () => Promise<Buffer> | Buffer) {
  const folder = join(CACHE_DIR, key)
  const file = join(folder, name)
  if (existsSync(file)) return Promise.resolve(file)
  return Promise.resolve(make()).then((data) => {
    mkdirSync(folder, { recursive: true })
    writeFileSync(file, data)
    return file
  })
}

/**
 * Makes a picture named in content ready for the page. The HTML gives it the width its place
 * on the page has and the height of its own proportions, so nothing shifts as it loads.
 */
export async function processImage(
  reference: ImageReference,
  directory = CONTENT_DIR,
): Promise<ProcessedImage> {
  const source = join(directory, 'imagenes', reference.path)
  const shown = `${IMAGE_FOLDER}/${reference.path}`
  if (!existsSync(source))
    throw new ImageProblem(
      `falta el archivo ${shown}; súbelo a esa carpeta o corrige el nombre (mayúsculas, guiones y extensión cuentan)`,
    )
  const bytes = statSync(source).size
  const name = relative(join(directory, 'imagenes'), source).replaceAll('/', '-')
  if (reference.exactSize) return exactSizePng(reference, source, shown, name)
  if (reference.path.toLowerCase().endsWith('.svg')) {
    if (bytes > MAX_SVG_BYTES)
      throw new ImageProblem(
        `${shown} pesa ${Math.round(bytes / 1000)} kB y un SVG puede pesar como máximo ${MAX_SVG_BYTES / 1000} kB: simplifícalo o exporta un PNG`,
      )
    const svg = readFileSync(source, 'utf8')
    const size = svgSize(svg)
    if (!size)
      throw new ImageProblem(
        `${shown} no dice su tamaño: el SVG necesita width y height, o viewBox, en su etiqueta <svg>`,
      )
    const file = await cached(name, digest(svg), () => Buffer.from(cleanSvg(svg)))
    return { file, ...scaled(size, reference.displayWidth) }
  }
  if (bytes > MAX_RASTER_BYTES)
    throw new ImageProblem(
      `${shown} pesa ${(bytes / 1e6).toFixed(1)} MB y un PNG puede pesar como máximo ${MAX_RASTER_BYTES / 1e6} MB`,
    )
  const data = readFileSync(source)
  const metadata = await sharp(data)
    .metadata()
    .catch(() => undefined)
  if (metadata?.format !== 'png' || !metadata.width || !metadata.height)
    throw new ImageProblem(`${shown} no es una imagen PNG válida: expórtala de nuevo como PNG`)
  // Twice the width it is shown at, for sharp screens; never enlarged.
  const width = Math.min(metadata.width, reference.displayWidth * 2)
  const file = await cached(name, digest(data, String(width)), () =>
    sharp(data)
      .resize({ width, withoutEnlargement: true })
      .png({ compressionLevel: 9, palette: true, quality: 90 })
      .toBuffer(),
  )
  return { file, ...scaled(metadata as { width: number; height: number }, reference.displayWidth) }
}

/**
 * A picture served as a file of its own at one exact size (the link preview): cut from the
 * centre if its proportions differ, written as PNG. A PNG already that size is kept as it is.
 */
async function exactSizePng(
  reference: ImageReference,
  source: string,
  shown: string,
  name: string,
): Promise<ProcessedImage> {
  const { width, height } = reference.exactSize!
  const data = readFileSync(source)
  const metadata = await sharp(data)
    .metadata()
    .catch(() => undefined)
  if (!metadata?.width || !metadata.height || !['png', 'svg'].includes(metadata.format ?? ''))
    throw new ImageProblem(`${shown} no es una imagen PNG o SVG válida: expórtala de nuevo`)
  if (metadata.format === 'png' && (metadata.width < width || metadata.height < height))
    throw new ImageProblem(
      `${shown} mide ${metadata.width} × ${metadata.height} y la imagen para compartir necesita al menos ${width} × ${height}`,
    )
  const unchanged =
    metadata.format === 'png' && metadata.width === width && metadata.height === height
  const file = await cached(
    name.replace(/\.svg$/i, '.png'),
    digest(data, `${width}x${height}`),
    () =>
      unchanged
        ? data
        : sharp(data, { density: 300 })
            .resize({ width, height, fit: 'cover' })
            .png({ compressionLevel: 9, palette: true, quality: 90 })
            .toBuffer(),
  )
  return { file, width, height }
}

function scaled(size: { width: number; height: number }, displayWidth: number) {
  return { width: displayWidth, height: Math.round((displayWidth * size.height) / size.width) }
}
