// Every environment variable `npm run dev` and `npm run cms` read, in one schema, read once at
// start: a wrong value stops it with one line naming the variable. HOST and DATA_DIR are the
// server's own settings (server/settings/config.ts), so the requests stored in development land where
// `npm start` and `npm run outbox` look for them.
import { readDataDir, SETTINGS as SERVER_SETTINGS } from '../server/settings/index.ts'
import { setting, settingsReader, type Env } from '../src/config/env-settings.ts'

const port = (fallback: string) =>
  setting({
    ...SERVER_SETTINGS.PORT,
    description: `${SERVER_SETTINGS.PORT.description} Default ${fallback}.`,
    default: fallback,
  })

const DEV_SETTINGS = {
  PORT: port('5173'),
  HOST: SERVER_SETTINGS.HOST,
  CMS_PROXY_PORT: port('8081'),
}

export interface DevSettings {
  port: number
  host: string
  dataDir: string
  proxyPort: number
}

/** The development server's settings; relative paths resolve against the repository (`root`). */
export function readDevSettings(env: Env, root: string): DevSettings {
  const { required } = settingsReader(DEV_SETTINGS, env)
  return {
    port: required('PORT'),
    host: required('HOST'),
    dataDir: readDataDir(env, root),
    proxyPort: required('CMS_PROXY_PORT'),
  }
}
