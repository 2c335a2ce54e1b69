import { describeJourneys } from './journeys'
import { launchChromium } from './puppeteer-driver'

describeJourneys('chromium', launchChromium)
