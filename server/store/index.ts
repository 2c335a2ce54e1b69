export { type Readiness, StoreWriteError } from './capacity.js'
export { DataDirError, type DataDirLock, lockDataDir } from './data-dir.js'
export {
  type AlsoWrite,
  type Channel,
  type ChannelBacklog,
  CHANNELS,
  type ChannelState,
  type Delivery,
  type ErasureRule,
  type Job,
  jobRef,
  type JobRef,
  keyAnswered,
  type LeadStore,
  type Meeting,
  type MeetingData,
  type MeetingNotice,
  type MeetingNotices,
  type Offer,
  offerBooking,
  type MessageStatus,
  type Notice,
  openLeadStore,
  type RequestFilter,
  type RouteChoice,
  SQLITE_FILE,
  type StoredRequest,
  StoreError,
  type StoreOptions,
  type StuckData,
  type UnreadData,
  type Watched,
  type WhatsAppRoute,
} from './lead-store.js'
export { OUTBOX_FILE } from './outbox-file.js'
export {
  importDataDirOutboxAtStart,
  importOutboxFile,
  takeInDataDirOutbox,
} from './outbox-import.js'
export { type DemoRequestRecord, newRecord } from './record.js'
