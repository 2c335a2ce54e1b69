export { type Readiness, StoreWriteError } from './capacity.js'
export { DataDirError, type DataDirLock, lockDataDir } from './data-dir.js'
export {
  type AlsoWrite,
  type Channel,
  CHANNELS,
  type ChannelsTable,
  type Delivery,
  type Job,
  jobRef,
  type JobRef,
  keyAnswered,
  type LeadDatabase,
  type LeadStore,
  type Notice,
  type NoticeData,
  type NoticeType,
  openLeadStore,
  queuedAnew,
  SQLITE_FILE,
  type StoredRequest,
  StoreError,
  type StoreOptions,
  toWhatsAppRoute,
  type UnreadData,
  type WhatsAppRoute,
} from './lead-store.js'
export { countInDataDirOutbox, dropFromDataDirOutbox } from './outbox-file-erasure.js'
export { OUTBOX_FILE } from './outbox-file.js'
export { importDataDirOutbox, importOutboxFile } from './outbox-import.js'
export { type DemoRequestRecord, newRecord } from './record.js'
