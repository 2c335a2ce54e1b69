// One-off generator for the brand images in public/ (favicons, app icons, manifest, Open Graph
// card). NOT part of the build: the outputs are committed, so builds need no browser.
//
//   node pipeline/make-brand-images.mjs
//
// The icons are SVG, rasterised and PNG-encoded by sharp. The Open Graph card is an HTML layout,
// so Chromium (playwright-core, CHROMIUM_PATH) renders it and sharp re-encodes the screenshot.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { chromium } from 'playwright-core'
import sharp from 'sharp'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../testing/chromium.mjs'

const OUT = new URL('../public/', import.meta.url)
// The link preview is content a marketer may replace (content/inicio.yml, head.shareImage).
const SHARE_IMAGE = new URL('../content/imagenes/compartir/og-image.png', import.meta.url)
const OG_BUDGET = 120 * 1024

// Every colour is a design token, read from the site's own tokens.css.
const TOKENS = new Map(
  [
    ...(await readFile(new URL('../src/styles/tokens.css', import.meta.url), 'utf8')).matchAll(
      /(--[\w-]+)\s*:\s*([^;]+);/g,
    ),
  ].map(([, name, value]) => [name, value.trim()]),
)
/** @param {string} name */
function token(name) {
  const value = TOKENS.get(name)
  if (value === undefined) throw new Error(`No design token ${name} in src/styles/tokens.css`)
  return value
}
const NAVY = token('--navy-900')
const DEEP = token('--navy-800')
const BLUE = token('--blue-600')
const LIGHT_BLUE = token('--blue-50')
const ACCENT = token('--accent')
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif"
// The card's text is laid out for Arial-like widths. system-ui is left out on purpose: on Linux
// it resolves to DejaVu Sans, which is much wider and breaks the headline into five lines.
const OG_FONT =
  "-apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Liberation Sans', sans-serif"

// The logo mark from src/components/logo.tsx: an orange drop with a navy check mark. Its
// bounding box in those coordinates is x 6..28, y 2..32.5.
const DROP = 'M17 2c5 7 11 12.6 11 19.5A11 11 0 0 1 6 21.5C6 14.6 12 9 17 2z'
const CHECK = 'M12.5 23.5l3.5 3.5 6.5-8'
const MARK_BOX = { x: 6, y: 2, width: 22, height: 30.5 }

/** The mark's two paths, in logo coordinates. */
const markPaths = (checkWidth = 2.6) =>
  `<path d="${DROP}" fill="${ACCENT}"/>` +
  `<path d="${CHECK}" fill="none" stroke="${NAVY}" stroke-width="${checkWidth}" ` +
  `stroke-linecap="round" stroke-linejoin="round"/>`

/**
 * A square icon: the mark centred on an optional background.
 * @param {object} options
 * @param {number} options.size  pixel size of the square
 * @param {number} options.markHeight  the drop's height as a fraction of the size
 * @param {string} [options.background]  fill behind the mark; none = transparent
 * @param {number} [options.radius]  corner radius of the background, as a fraction of the size
 * @param {number} [options.checkWidth]  stroke width of the check, in logo units
 */
function iconSvg({ size, markHeight, background, radius = 0, checkWidth }) {
  const scale = (size * markHeight) / MARK_BOX.height
  // The drop's mass sits low (round bottom, pointed top): nudge it up a little.
  const dx = size / 2 - (MARK_BOX.x + MARK_BOX.width / 2) * scale
  const dy = size / 2 - (MARK_BOX.y + MARK_BOX.height / 2) * scale - size * 0.01
  const backdrop = background
    ? `<defs><linearGradient id="fade" x1="0" y1="0" x2="0" y2="1">` +
      `<stop offset="0" stop-color="${background}"/><stop offset="1" stop-color="${DEEP}"/>` +
      `</linearGradient></defs>` +
      `<rect width="${size}" height="${size}" rx="${size * radius}" fill="url(#fade)"/>`
    : ''
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" ` +
    `viewBox="0 0 ${size} ${size}">${backdrop}` +
    `<g transform="translate(${dx.toFixed(3)} ${dy.toFixed(3)}) scale(${scale.toFixed(5)})">` +
    `${markPaths(checkWidth)}</g></svg>`
  )
}

/** public/favicon.svg: the drop alone, tight in a square viewBox, no background. */
const FAVICON_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="1 1.25 32 32">` +
  `<title>GASPRE</title>${markPaths(2.8)}</svg>\n`

const page = (width, height, body, css = '') => `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><style>
html,body{margin:0;padding:0;background:transparent}
body{width:${width}px;height:${height}px;overflow:hidden;font-family:${FONT}}
svg{display:block}
${css}
</style></head><body>${body}</body></html>`

/** The Open Graph / Twitter card: 1200 × 630. */
function ogImageHtml() {
  const rows = [
    { fuel: 'Magna', tone: token('--success'), price: '23.49', zone: '23.79', delta: '−0.30' },
    { fuel: 'Premium', tone: token('--danger'), price: '25.19', zone: '25.29', delta: '−0.10' },
    { fuel: 'Diésel', tone: token('--text'), price: '25.89', zone: '25.69', delta: '+0.20' },
  ]
  const board = rows
    .map(
      (row) => `
      <div class="row">
        <span class="fuel"><i style="background:${row.tone}"></i>${row.fuel}</span>
        <span class="price">$${row.price}</span>
        <span class="zone">$${row.zone}</span>
        <span class="delta ${row.delta.startsWith('+') ? 'up' : 'down'}">${row.delta}</span>
      </div>`,
    )
    .join('')
  // Ten days of Magna: the zone average (grey) and your price (blue) converging on it.
  const zone = [23.95, 23.9, 23.92, 23.86, 23.88, 23.83, 23.85, 23.8, 23.82, 23.79]
  const yours = [24.19, 24.15, 24.05, 23.99, 23.9, 23.82, 23.7, 23.62, 23.55, 23.49]
  const [chartWidth, chartHeight] = [368, 64]
  const points = (/** @type {number[]} */ prices) =>
    prices
      .map((price, i) => {
        const x = 10 + (i * (chartWidth - 20)) / (prices.length - 1)
        const y = 10 + ((24.2 - price) / (24.2 - 23.49)) * (chartHeight - 20)
        return `${x.toFixed(1)},${y.toFixed(1)}`
      })
      .join(' ')
  const last = points(yours).split(' ').at(-1)?.split(',') ?? ['0', '0']
  const logo =
    `<svg width="232" height="56" viewBox="0 0 150 36" aria-hidden="true">${markPaths()}` +
    `<text x="36" y="27" fill="${token('--on-dark')}" font-size="24" font-weight="800" ` +
    `letter-spacing="1" textLength="110" lengthAdjust="spacingAndGlyphs">GASPRE</text></svg>`
  return page(
    1200,
    630,
    `
    <main class="card">
      <section class="copy">
        ${logo}
        <h1>Sistema de inteligencia<br> en precios para<br> estaciones de servicio</h1>
        <p class="stats"><b>+2,000</b> estaciones<span>·</span><b>+150</b> grupos</p>
      </section>
      <aside class="board">
        <header>
          <strong>Tu estación vs. tu zona</strong>
          <span class="live"><i></i>En vivo</span>
        </header>
        <div class="row head"><span>Producto</span><span>Tu precio</span><span>Zona</span><span></span></div>
        ${board}
        <div class="chart">
          <div class="legend"><span>Magna · 10 días</span><span><i class="you"></i>Tú<i class="avg"></i>Zona</span></div>
          <svg width="${chartWidth}" height="${chartHeight}" viewBox="0 0 ${chartWidth} ${chartHeight}">
            <polyline points="${points(zone)}" fill="none" stroke="${token('--chart-muted')}" stroke-width="3"
              stroke-dasharray="2 7" stroke-linecap="round" stroke-linejoin="round"/>
            <polyline points="${points(yours)}" fill="none" stroke="${BLUE}" stroke-width="4"
              stroke-linecap="round" stroke-linejoin="round"/>
            <circle cx="${last[0]}" cy="${last[1]}" r="6" fill="${BLUE}" stroke="${token('--white')}" stroke-width="3"/>
          </svg>
        </div>
        <footer><span>Precio óptimo sugerido</span><b>$23.55</b></footer>
      </aside>
    </main>`,
    `
    body{font-family:${OG_FONT}}
    .card{box-sizing:border-box;width:1200px;height:630px;padding:0 64px 0 72px;
      display:flex;align-items:center;gap:44px;color:${token('--on-dark')};
      background:linear-gradient(180deg, ${NAVY} 30%, ${DEEP})}
    .copy{flex:1 1 0;display:flex;flex-direction:column;align-items:flex-start}
    h1{margin:40px 0 36px;font-size:54px;line-height:1.1;font-weight:800;letter-spacing:-1px;
      white-space:nowrap}
    .stats{margin:0;font-size:30px;color:${token('--on-dark-muted')}}
    .stats b{color:${token('--on-dark')};font-weight:800}
    .stats span{display:inline-block;width:8px;height:8px;margin:0 16px 4px;border-radius:50%;
      background:${ACCENT};font-size:0;vertical-align:middle}
    .board{flex:0 0 424px;box-sizing:border-box;padding:24px 28px 28px;border-radius:24px;
      background:${token('--white')};color:${NAVY};box-shadow:0 20px 40px ${token('--shadow-strong')}}
    .board header{display:flex;justify-content:space-between;align-items:center;
      font-size:21px;margin-bottom:16px}
    .live{display:flex;align-items:center;gap:7px;padding:4px 10px;border-radius:999px;
      background:${token('--success-bg')};font-size:14px;font-weight:700;color:${token('--success')}}
    .live i{width:8px;height:8px;border-radius:50%;background:${token('--success')}}
    .row{display:grid;grid-template-columns:128px 98px 86px 1fr;align-items:center;
      padding:10px 0;border-top:2px solid ${LIGHT_BLUE};font-size:20px}
    .row.head{border-top:0;padding:0 0 8px;font-size:13px;font-weight:700;color:${token('--muted')};
      text-transform:uppercase;letter-spacing:.6px}
    .fuel{display:flex;align-items:center;gap:10px;font-weight:700}
    .fuel i{width:8px;height:24px;border-radius:4px}
    .price{font-weight:800;font-size:22px}
    .zone{color:${token('--muted')}}
    .delta{justify-self:end;font-size:15px;font-weight:800;padding:4px 8px;border-radius:8px}
    .delta.down{background:${LIGHT_BLUE};color:${BLUE}}
    .delta.up{background:${token('--danger-bg')};color:${token('--danger')}}
    .chart{padding-top:12px;border-top:2px solid ${LIGHT_BLUE}}
    .legend{display:flex;justify-content:space-between;align-items:center;margin-bottom:8px;
      font-size:13px;font-weight:700;color:${token('--muted')};text-transform:uppercase;letter-spacing:.6px}
    .legend i{display:inline-block;width:16px;height:4px;border-radius:2px;margin:0 6px 3px 14px}
    .legend .you{background:${BLUE}}
    .legend .avg{background:${token('--chart-muted')}}
    .board footer{margin-top:16px;padding:12px 16px;border-radius:14px;background:${LIGHT_BLUE};
      display:flex;justify-content:space-between;align-items:center;font-size:18px;
      font-weight:700;color:${DEEP}}
    .board footer b{font-size:24px;color:${NAVY}}
    `,
  )
}

/** Smallest PNG sharp makes: a palette when the image fits one, maximum compression. */
const encodePng = (input) =>
  sharp(input).png({ palette: true, quality: 100, compressionLevel: 9, effort: 10 }).toBuffer()

// Hand-made because sharp writes no ICO: one PNG image behind a 22-byte ICONDIR header.
/**
 * An ICO file holding one PNG image (valid since Windows Vista; every current browser reads it).
 * @param {Buffer} png @param {number} size
 */
function icoFromPng(png, size) {
  const header = Buffer.alloc(6 + 16)
  header.writeUInt16LE(0, 0) // reserved
  header.writeUInt16LE(1, 2) // type: icon
  header.writeUInt16LE(1, 4) // one image
  header[6] = size >= 256 ? 0 : size // width
  header[7] = size >= 256 ? 0 : size // height
  header[8] = 0 // no palette
  header[9] = 0 // reserved
  header.writeUInt16LE(1, 10) // colour planes
  header.writeUInt16LE(32, 12) // bits per pixel
  header.writeUInt32LE(png.length, 14) // image size
  header.writeUInt32LE(header.length, 18) // image offset
  return Buffer.concat([header, png])
}

// ---------------------------------------------------------------------------------------------

const manifest = {
  name: 'GASPRE · Inteligencia en precios para estaciones de servicio',
  short_name: 'GASPRE',
  description:
    'Sistema de inteligencia en precios para estaciones de servicio: monitorea a tu competencia, ' +
    'recibe alertas por WhatsApp y fija el precio óptimo de cada estación.',
  lang: 'es',
  dir: 'ltr',
  id: '/',
  start_url: '/',
  scope: '/',
  display: 'browser',
  theme_color: NAVY,
  background_color: token('--white'),
  icons: [
    { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
  ],
}

/** @type {{ file: string, size: number, svg: () => string }[]} */
const ICONS = [
  // Tab icon: the mark alone, as large as the square allows; a bolder check at this size.
  {
    file: 'favicon-32.png',
    size: 32,
    svg: () => iconSvg({ size: 32, markHeight: 0.94, checkWidth: 3 }),
  },
  // iOS fills transparency with black and rounds the corners itself: full-bleed navy.
  {
    file: 'apple-touch-icon.png',
    size: 180,
    svg: () => iconSvg({ size: 180, markHeight: 0.62, background: NAVY }),
  },
  {
    file: 'icon-192.png',
    size: 192,
    svg: () => iconSvg({ size: 192, markHeight: 0.62, background: NAVY, radius: 0.22 }),
  },
  {
    file: 'icon-512.png',
    size: 512,
    svg: () => iconSvg({ size: 512, markHeight: 0.62, background: NAVY, radius: 0.22 }),
  },
  // Maskable: full bleed, and the mark well inside the 40%-radius safe circle.
  {
    file: 'icon-maskable-512.png',
    size: 512,
    svg: () => iconSvg({ size: 512, markHeight: 0.52, background: NAVY }),
  },
]

await mkdir(OUT, { recursive: true })

/** @param {string} file @param {Buffer | string} content */
const write = async (file, content) => {
  await writeFile(new URL(file, OUT), content)
  console.log(`public/${file.padEnd(24)} ${String(Buffer.byteLength(content)).padStart(7)} B`)
}

await write('favicon.svg', FAVICON_SVG)
for (const icon of ICONS) {
  const png = await encodePng(Buffer.from(icon.svg()))
  if (icon.file === 'favicon-32.png') await write('favicon.ico', icoFromPng(png, 32))
  else await write(icon.file, png)
}
await write('site.webmanifest', `${JSON.stringify(manifest, null, 2)}\n`)

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS })
try {
  const tab = await browser.newPage({ viewport: { width: 1200, height: 630 } })
  await tab.setContent(ogImageHtml(), { waitUntil: 'load' })
  await tab.evaluate('document.fonts.ready.then(() => true)')
  const og = await encodePng(await tab.screenshot({ type: 'png', animations: 'disabled' }))
  await writeFile(SHARE_IMAGE, og)
  console.log(`wrote ${SHARE_IMAGE.pathname} (${og.length} B)`)
  if (og.length > OG_BUDGET) {
    console.error(`og-image.png is ${og.length} B, over the ${OG_BUDGET} B budget`)
    process.exitCode = 1
  }
} finally {
  await browser.close()
}
