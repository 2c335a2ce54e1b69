export { clientKey } from './client-address.js'
export { type ConnectionCounts, ConnectionLimits } from './connection-limits.js'
export { COMPRESSIBLE } from './precompressed.js'
export { RepeatedLines } from './repeated-lines.js'
export { countedInSummary, OneLinePerRequest } from './request-log.js'
export { classifyPath } from './request-path.js'
export { DEFAULT_TURN_LIMITS, oneRequestAtATime } from './request-turns.js'
export {
  ASSETS_PREFIX,
  cacheControlFor,
  EDITOR_PATH,
  editorContentSecurityPolicy,
  editorSecurityHeaders,
  IMMUTABLE_CACHE,
  isEditorPath,
  NO_STORE,
  REVALIDATE_CACHE,
  securityHeaders,
} from './security-headers.js'
export {
  type BookingTexts,
  readSiteBuild,
  readSitePages,
  type SiteBuild,
  SiteBuildError,
  type SitePage,
} from './site-build.js'
export { clientErrorStatus, sendText, TEXT } from './text-reply.js'
