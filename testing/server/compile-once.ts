// The processes project's global setup: the server is compiled once for the run, before any
// test file starts it, rather than by each file (a tsc run of seconds apiece).
import { compileServer } from './compiled-server.js'

export default function compileServerOnce(): void {
  compileServer()
}
