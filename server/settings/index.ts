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
export { parsePhone, phoneForPeople, phoneLinks } from './phone-number.js'
export { repsInTurn, type WhatsAppRoutes } from './whatsapp-routes.js'
export { afterWorkingMinutes } from './working-hours.js'
