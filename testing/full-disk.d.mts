import type { OutboxIo } from '../server/outbox.ts'

export declare const FULL_DISK_DOMAIN: string
export declare function fullDiskFor(io: OutboxIo): OutboxIo
