// `npm start` runs this: the production server (start-server.ts). A wrong setting, a missing
// build, or a DATA_DIR it cannot write or that another server holds stops it: one line says why.
import { isOperatorError, startServer } from './start-server.js'

startServer().catch((error: unknown) => {
  console.error(isOperatorError(error) ? error.message : error)
  process.exit(1)
})
