export {
  ConfigError,
  DEFAULT_TIME_ZONE,
  type DeliveryConfig,
  readConfig,
  readDataDir,
  type ServerConfig,
  SETTINGS,
  type WhatsAppConfig,
} from './config.js'
export { parsePhone, phoneForPeople, phoneLinks, phoneRegions } from './phone-number.js'
export { type Team, type TeamRep, territoryOf } from './team-file.js'
export { repsInTurn, type WhatsAppRoutes } from './whatsapp-routes.js'
export {
  afterWorkingMinutes,
  instantOf,
  isTimeZone,
  wallClockOf,
  type WorkingHours,
  zoneOffsetMs,
} from './working-hours.js'
