// The scroll trace of npm run bench: the home page in a 390×844 phone viewport with the CPU 4×
// slower, scrolled top to bottom over 5 s, while the browser's Long Tasks API reports every
// main-thread task over 50 ms. Exported for bench-lighthouse.mjs, which runs the server.
import { chromium } from 'playwright-core'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.mjs'

const SCROLL_MS = 5000
const CPU_SLOWDOWN = 4

export async function scrollTrace(origin) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS })
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
    })
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
    await page.goto(`${origin}/`, { waitUntil: 'networkidle' })
    await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' })
    const result = await page.evaluate(
      (duration) =>
        new Promise((resolve) => {
          const longTasks = []
          const observer = new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) longTasks.push(Math.round(entry.duration))
          })
          observer.observe({ type: 'longtask' })
          const max = document.documentElement.scrollHeight - window.innerHeight
          const start = performance.now()
          let frames = 0
          const step = (now) => {
            const progress = Math.min(1, (now - start) / duration)
            window.scrollTo({ top: Math.round(progress * max), behavior: 'instant' })
            frames++
            if (progress < 1) return requestAnimationFrame(step)
            // Long tasks are reported after they end: one more frame lets the last one in.
            requestAnimationFrame(() => {
              observer.disconnect()
              resolve({ frames, pageHeight: max + window.innerHeight, longTasks })
            })
          }
          requestAnimationFrame(step)
        }),
      SCROLL_MS,
    )
    const longest = Math.max(0, ...result.longTasks)
    console.log(
      `\nScroll of / (390×844, CPU ${CPU_SLOWDOWN}× slower, ${SCROLL_MS / 1000} s, ` +
        `${result.frames} frames, ${result.pageHeight} px): ${result.longTasks.length} task(s) ` +
        `over 50 ms${result.longTasks.length ? `, the longest ${longest} ms` : ''}`,
    )
    return { ...result, longestTaskMs: longest, cpuSlowdown: CPU_SLOWDOWN }
  } finally {
    await browser.close()
  }
}
