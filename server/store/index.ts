export { type Readiness, StoreWriteError } from './capacity.js'
export { DataDirError, type DataDirLock, lockDataDir } from './data-dir.js'
export {
  type Channel,
  CHANNELS,
  type ChannelsTable,
  type Delivery,
  type Job,
  jobRef,
  type JobRef,
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
export { OUTBOX_FILE } from './outbox-file.js'
export {
  importDataDirOutboxAtStart,
  importOutboxFile,
  takeInDataDirOutbox,
} from './outbox-import.js'
export { type DemoRequestRecord, newRecord } from './record.js'
