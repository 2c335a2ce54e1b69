export { DemoRequests, type DemoRequestsParts, type FloodEpisode } from './demo-requests.js'
