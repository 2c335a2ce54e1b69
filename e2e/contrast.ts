import type { Locator } from '@playwright/test'

/** An sRGB colour with its opacity, as getComputedStyle writes it: `rgb(r, g, b)` or `rgba(…)`. */
type Rgba = readonly [number, number, number, number]

const parse = (color: string): Rgba => {
  const [r = 0, g = 0, b = 0, a = 1] = (color.match(/[\d.]+/g) ?? []).map(Number)
  return [r, g, b, a]
}

const luminance = ([r, g, b]: Rgba) => {
  const channel = (value: number) => {
    const c = value / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

/** `top` painted over `bottom` (an opaque colour). */
const over = (top: Rgba, bottom: Rgba): Rgba => {
  const [r, g, b, a] = top
  return [r * a + bottom[0] * (1 - a), g * a + bottom[1] * (1 - a), b * a + bottom[2] * (1 - a), 1]
}

/** The WCAG contrast ratio of two colours: from 1 (none) to 21 (black on white). */
export function contrastRatio(foreground: string, background: string): number {
  const back = parse(background)
  const [a, b] = [luminance(over(parse(foreground), back)), luminance(back)]
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
}

/**
 * The colour an element's text and outline are painted over, as the page shows it: the
 * background colours from the element (or, for what is drawn around it, its parent) up to the
 * first opaque one, painted over each other. Beyond the page there is the canvas, white.
 */
export async function backgroundBehind(
  element: Locator,
  { around = false }: { around?: boolean } = {},
): Promise<string> {
  const layers = await element.evaluate((start, skipSelf) => {
    const found: string[] = []
    for (
      let node: Element | null = skipSelf ? start.parentElement : start;
      node;
      node = node.parentElement
    ) {
      const color = getComputedStyle(node).backgroundColor
      found.push(color)
      if (/^rgb\(/.test(color)) break // opaque: nothing behind it shows
    }
    return found
  }, around)
  const painted = layers.reduceRight<Rgba>(
    (behind, layer) => over(parse(layer), behind),
    [255, 255, 255, 1],
  )
  return `rgb(${painted.slice(0, 3).map(Math.round).join(', ')})`
}
