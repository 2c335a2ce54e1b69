// The server project's global setup: its output starts with the Node.js release it runs on, as
// npm test runs it on two (the machine's own and the LTS line, testing/server-tests-on-lts.mjs).
export default function printNodeVersion(): void {
  console.log(`Server tests on Node.js ${process.version}`)
}
