export { DemoRequests } from './demo-requests.js'
