import { describeJourneys } from './journeys'
import { launchFirefox } from './puppeteer-driver'

describeJourneys('firefox', launchFirefox, { booking: true })
