// The settings every bench shares, so their figures compare: a mid-range phone and a desktop,
// the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate), and a quiet period after hydration.

export const CPU_SLOWDOWN = 4

export const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
}

export const DESKTOP = { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 }

/**
 * What a bench waits after the page has hydrated and before it measures. Hydration is the
 * synchronisation; this is the measurement's own choice: after hydrating, the home page still
 * reads the carousel's pictures, one task each (decision 006), and a visitor's first tap or
 * scroll seldom comes sooner.
 */
export const QUIET_AFTER_HYDRATION_MS = 1500

/**
 * The slowdowns of `npm run bench:interactions`: the shared 4× (a mid-range phone) and 6× (a
 * low-end Android, where a visitor feels a slow answer first).
 */
export const INTERACTION_CPU_SLOWDOWNS = [CPU_SLOWDOWN, 6]
