export { deliveryChannels, type DeliveryObserver, DeliveryWorker } from './worker.js'
