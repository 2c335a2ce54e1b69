import { describeJourneys } from './journeys'
import { launchWebKit } from './webdriver-driver'

describeJourneys('webkit', launchWebKit, { booking: true })
