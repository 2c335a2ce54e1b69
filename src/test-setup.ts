import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'

// The page's test files share one window per worker (vitest.config.ts): what a test leaves there
// is taken away after it.
afterEach(() => {
  cleanup()
  localStorage.clear()
  sessionStorage.clear()
  delete window.dataLayer
})
