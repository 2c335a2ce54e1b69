import type { BrowserContext, Page } from 'playwright-core'

export declare const HYDRATED_SELECTOR: string
export declare function waitForHydration(page: Pick<Page, 'locator'>): Promise<void>
export declare function markHydratedOnceRendered(
  context: Pick<BrowserContext | Page, 'addInitScript'>,
): Promise<void>
