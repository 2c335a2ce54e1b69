import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ImageReference } from '../../src/copy/schema.ts'
import { cleanSvg, ImageProblem, MAX_SVG_BYTES, processImage } from './images.ts'

/** A content folder of the test's own, with the pictures it writes. */
let folder = ''
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'contenido-'))
  mkdirSync(join(folder, 'imagenes', 'clientes'), { recursive: true })
})
afterEach(() => rmSync(folder, { recursive: true, force: true }))
const picture = (name: string, data: string | Buffer) =>
  writeFileSync(join(folder, 'imagenes', 'clientes', name), data)
const logo = (name: string) => new ImageReference(`clientes/${name}`, 'Logotipo', 200)

const HOSTILE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="100" viewBox="0 0 400 100" onload="alert(1)">
  <script>alert(2)</script>
  <style>@import url(https://evil.example/a.css); rect { fill: url(https://evil.example/p.svg#x) }</style>
  <a href="javascript:alert(3)"><rect width="10" height="10" onclick="alert(4)"/></a>
  <image href="https://evil.example/track.png" width="10" height="10"/>
  <use xlink:href="https://evil.example/sprite.svg#logo"/>
  <foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example/"></iframe></foreignObject>
  <circle cx="50" cy="50" r="40" fill="#ff8a3d"/>
</svg>`

describe('pictures added to content/imagenes/', () => {
  it('an SVG loses its scripts, event handlers and outside references, and keeps its drawing', () => {
    const clean = cleanSvg(HOSTILE_SVG)
    expect(clean).toContain('<circle')
    expect(clean).not.toMatch(
      /<script|onload|onclick|javascript:|evil\.example|foreignObject|iframe|@import/i,
    )
  })

  it('an SVG is written cleaned, at its place on the page and in its own proportions', async () => {
    picture('nuevo.svg', HOSTILE_SVG)
    const processed = await processImage(logo('nuevo.svg'), folder)
    expect(processed).toMatchObject({ width: 200, height: 50 })
    const written = readFileSync(processed.file, 'utf8')
    expect(written).toContain('<circle')
    expect(written).not.toMatch(/<script|onload|evil\.example/)
  })

  it('a PNG is resized to twice its place on the page, never larger, and keeps its proportions', async () => {
    const big = await sharp({
      create: { width: 1600, height: 640, channels: 3, background: '#0b1f3a' },
    })
      .png()
      .toBuffer()
    picture('grande.png', big)
    const processed = await processImage(logo('grande.png'), folder)
    expect(processed).toMatchObject({ width: 200, height: 80 })
    const written = await sharp(readFileSync(processed.file)).metadata()
    expect([written.format, written.width, written.height]).toEqual(['png', 400, 160])
    expect(readFileSync(processed.file).byteLength).toBeLessThan(big.byteLength)
  })

  it.each([
    [
      'a missing file',
      () => {},
      /^falta el archivo content\/imagenes\/clientes\/x\.svg; súbelo a esa carpeta o corrige el nombre/,
    ],
    [
      'an SVG without a size',
      () => picture('x.svg', '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>'),
      /no dice su tamaño: el SVG necesita width y height, o viewBox/,
    ],
    [
      'an SVG too heavy for a logo',
      () =>
        picture(
          'x.svg',
          `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 1"><!--${'x'.repeat(MAX_SVG_BYTES)}--></svg>`,
        ),
      /pesa 200 kB y un SVG puede pesar como máximo 200 kB/,
    ],
  ])('refuses %s with a sentence', async (_, write, reason) => {
    write()
    const failure = processImage(logo('x.svg'), folder)
    await expect(failure).rejects.toBeInstanceOf(ImageProblem)
    await expect(failure).rejects.toThrow(reason)
  })

  it('refuses a file named .png that is not a PNG', async () => {
    picture('foto.png', Buffer.from('GIF89a not a png'))
    await expect(processImage(logo('foto.png'), folder)).rejects.toThrow(
      'content/imagenes/clientes/foto.png no es una imagen PNG válida: expórtala de nuevo como PNG',
    )
  })
})
