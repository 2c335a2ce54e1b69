import type { Database } from 'better-sqlite3'

export declare const FULL_DISK_DOMAIN: string
export declare function fullDiskFor(connection: Database): void
