export {
  type ChannelReport,
  channelReports,
  deliveryHealth,
  type DeliveryHealth,
} from './health.js'
export { abortReason, type Outcome, type Sender } from './outcome.js'
