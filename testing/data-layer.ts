// What the page told Google's tags, read the same way from jsdom's window and in a browser
// (Playwright runs this function in the page on its data layer's handle, so it must use nothing
// from outside itself).

/** The consent commands and events in a data layer, in order: 'consent default', 'gtm.js'… */
export function dataLayerSteps(layer: readonly unknown[] = []): (string | undefined)[] {
  return layer.map((entry) =>
    Object.prototype.toString.call(entry) === '[object Arguments]'
      ? Array.from(entry as ArrayLike<unknown>)
          .slice(0, 2)
          .join(' ')
      : (entry as { event?: string }).event,
  )
}
