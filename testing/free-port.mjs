// A loopback port nothing listens on, for a server a test or a bench starts: one helper for
// e2e/, engines/, the server tests and benches/.
import { createServer } from 'node:net'

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('the probe got no port')),
      )
    })
  })
}
