// The demo form's endpoint in development: the intake of `npm start` on its store and delivery
// worker (server/lead-service.ts), configured as `npm start` is, with the dev server's DATA_DIR,
// so `npm run outbox` lists what a developer sent. A DATA_DIR another server holds stops the
// start with one line.
import Fastify, { type FastifyInstance } from 'fastify'
import { registerLeadIntake } from '../../server/app.ts'
import { readConfig } from '../../server/settings/index.ts'
import { openLeadService, type LeadService } from '../../server/lead-service.ts'
import { isOperatorError } from '../../server/start-server.ts'
import { readContentFile } from '../../pipeline/loader/read.ts'

export async function startLeadIntake(
  root: string,
  dataDir: string,
): Promise<{ api: FastifyInstance; leads: LeadService }> {
  let leads: LeadService | undefined
  try {
    const config = readConfig({ ...process.env, DATA_DIR: dataDir }, root)
    leads = await openLeadService(config, (error) => {
      console.error(`lost the lock on DATA_DIR (${error.message}): stopping`)
      process.exit(1)
    })
    const api = Fastify({ logger: { level: 'warn' } })
    // The door answers with the form's messages, read from content/ as the build would write them.
    const { errors } = readContentFile('formulario.yml').demoForm
    registerLeadIntake(api, {
      ...leads.appOptions,
      store: leads.store,
      limits: config,
      formMessages: errors,
    })
    await api.ready()
    await leads.begin(api.log)
    return { api, leads }
  } catch (error) {
    await leads?.stop()
    if (!isOperatorError(error)) throw error
    console.error(error.message)
    process.exit(1)
  }
}
