export { Bookings } from './bookings.js'
export { bookingRoutes } from './routes.js'
