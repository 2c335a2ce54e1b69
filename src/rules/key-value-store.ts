/**
 * What the rules need of Web Storage, and all they may assume: reads that may answer null and
 * writes that may be dropped (browser/storage.ts gives the page's; tests give a Map).
 */
export type KeyValueStore = {
  get(key: string): string | null
  set(key: string, value: string): void
  remove(key: string): void
}
