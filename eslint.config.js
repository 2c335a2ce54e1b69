import js from '@eslint/js'
import boundaries from 'eslint-plugin-boundaries'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import { pageCodeOnly } from './testing/lint/page-code-only.mjs'

// Each file runs in one environment, and may name only that environment's globals.
const nodeOnlyGlobals = Object.keys(globals.node).filter((name) => !(name in globals.browser))
const browserOnlyGlobals = [
  ...Object.keys(globals.browser).filter((name) => !(name in globals.node)),
  // Node 22 has these too, but in this project only a page has a navigator or Web Storage.
  'localStorage',
  'sessionStorage',
  'navigator',
]
/** What a rule may not touch: the page, storage, the network (decision 007). */
const impureGlobals = [...browserOnlyGlobals, 'fetch', 'WebSocket', 'Request', 'Response']

/** src/ files that run in Node, at build time, besides the tests. */
const BUILD_TIME_SOURCES = [
  'src/config/build-settings.ts',
  'src/config/env-settings.ts',
  'src/config/token-values.ts',
  'src/prerender.tsx',
]
const SOURCE_TESTS = ['src/**/*.test.{ts,tsx}', 'src/test-setup.ts']
/** Node code that hands functions to a browser page. */
const PAGE_DRIVING_CODE = ['e2e/**', 'engines/**', 'testing/**', 'benches/**']
/** The calls whose function arguments run in the page, not in Node. */
const PAGE_CALLS = [
  'evaluate',
  'evaluateAll',
  'evaluateHandle',
  'evaluateOnNewDocument',
  'waitForFunction',
  'addInitScript',
  '$eval',
  '$$eval',
  'waitFor', // engines/driver.ts: polls a condition in the page
]

/**
 * The layers of src/, lowest first: a file imports from its own layer or a lower one, never a
 * higher one (decision 007). Tests may reach across layers.
 */
const LAYERS = [
  ['contract'], // what the page and the server agree on; it imports nothing
  ['styles', 'assets'],
  ['config'],
  ['copy'],
  ['rules'],
  ['browser', 'islands'],
  ['components'],
  ['sections'],
  ['pages'],
  ['entries'], // src/*.ts(x): the page entries, the prerender and the <head>
]
const layerElements = [
  ...LAYERS.flat()
    .filter((type) => type !== 'entries')
    .map((type) => ({ type, pattern: `src/${type}/**`, partialMatch: false })),
  { type: 'entries', pattern: 'src/*', partialMatch: false },
]
const upwardImports = LAYERS.slice(0, -1).map((layer, index) => ({
  from: { element: { type: layer } },
  disallow: { to: { element: { type: LAYERS.slice(index + 1).flat() } } },
  message: `${layer.join('/')} sits below ${LAYERS.slice(index + 1)
    .flat()
    .join(', ')}: import from its own layer or a lower one (decision 007)`,
}))

/**
 * The rooms of server/, lowest first (decision 019): a room imports from its own layer or a
 * lower one, and another room only through its face, `index.ts`. The entrance (server/*.ts)
 * puts them together. Tests may reach inside.
 */
const SERVER_LAYERS = [
  ['text'], // how outside text is made safe to log and show
  ['settings'], // the environment, read and checked once
  ['http'], // the edge: listener, serving rules, security headers
  ['store'], // the lead store: dialects, migrations, records, the job queue
  ['queue'], // what a send came to, and the delivery health
  ['calendar'], // the reps' calendars read in the background, and their free times (issue 44)
  ['mail'],
  ['webhook'],
  ['whatsapp'],
  ['delivery'], // the worker that hands each job to its channel
  ['privacy'], // exports, erasures and retention
  ['booking'], // a meeting booked from the rep's calendar: the service and its pages (issue 44)
  ['demo-requests'], // the one service: a request accepted, held, delivered (issue 43)
  ['intake'], // the routes that take a demo request from the form to the service
  ['cli'], // npm run outbox
  ['entrance'], // server/*.ts: the app, the service, the start
]
const SERVER_TESTS = ['server/**/*.test.ts']
const roomPath = (type) =>
  ['mail', 'webhook', 'whatsapp'].includes(type) ? `server/channels/${type}` : `server/${type}`
const serverElements = [
  ...SERVER_LAYERS.flat()
    .filter((type) => type !== 'entrance')
    .map((type) => ({ type, pattern: roomPath(type) })),
  // Last, so that it takes only the files the rooms above did not: server/*.ts.
  { type: 'entrance', pattern: 'server' },
]
const serverRooms = SERVER_LAYERS.flat().filter((type) => type !== 'entrance')
const serverPolicies = [
  ...SERVER_LAYERS.slice(0, -1).map((layer, index) => ({
    from: { element: { type: layer } },
    disallow: { to: { element: { type: SERVER_LAYERS.slice(index + 1).flat() } } },
    message: `server/${layer.join('/')} sits below ${SERVER_LAYERS.slice(index + 1)
      .flat()
      .join(', ')}: import from its own layer or a lower one (decision 019)`,
  })),
  {
    to: { element: { type: serverRooms, fileInternalPath: '!index.ts' } },
    disallow: { from: { element: { type: SERVER_LAYERS.flat() } } },
    message: 'another room is entered through its face, index.ts (decision 019)',
  },
]

export default tseslint.config(
  {
    ignores: [
      'dist',
      'build',
      'coverage',
      'test-results',
      'playwright-report',
      'bench-results',
      'engines-results',
    ],
  },
  { plugins: { local: { rules: { 'page-code-only': pageCodeOnly } } } },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['src/**/*.tsx'],
    ...jsxA11y.flatConfigs.strict,
  },

  // Environments. Node code: the server, the tools, the tests' drivers, the configuration files.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: globals.node },
    rules: { 'local/page-code-only': ['error', { browserGlobals: browserOnlyGlobals }] },
  },
  {
    // Their functions handed to a page run there: inside those, the page's globals are right.
    files: PAGE_DRIVING_CODE,
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      'local/page-code-only': [
        'error',
        { browserGlobals: browserOnlyGlobals, pageCalls: PAGE_CALLS },
      ],
    },
  },
  {
    // What ships to the browser. Build-time sources and the tests (jsdom in Node) see both.
    files: ['src/**'],
    ignores: [...BUILD_TIME_SOURCES, ...SOURCE_TESTS],
    languageOptions: { globals: globals.browser },
    rules: {
      'local/page-code-only': 'off',
      'no-restricted-globals': [
        'error',
        ...nodeOnlyGlobals.map((name) => ({
          name,
          message: `${name} is Node's: this file runs in the browser.`,
        })),
      ],
    },
  },
  {
    files: [...BUILD_TIME_SOURCES, ...SOURCE_TESTS],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: { 'local/page-code-only': 'off' },
  },
  {
    // The content editor's modules, which run in Decap CMS's page (and its tests in Node).
    files: ['editor/{setup,formats,locale}.ts', 'editor/preview.tsx'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: { 'local/page-code-only': 'off' },
  },
  {
    // Rules are pure: no page, storage or network, in the browser or in Node.
    files: ['src/rules/**'],
    ignores: SOURCE_TESTS,
    rules: {
      'no-restricted-globals': [
        'error',
        ...[...nodeOnlyGlobals, ...impureGlobals].map((name) => ({
          name,
          message: `A rule touches no page, storage, network or process: pass ${name}'s part in as an argument (decision 007).`,
        })),
      ],
    },
  },

  // The layers of src/.
  {
    files: ['src/**/*.{ts,tsx,js}'],
    ignores: SOURCE_TESTS,
    plugins: { boundaries },
    settings: {
      'boundaries/elements': layerElements,
      'boundaries/dependency-nodes': ['import', 'dynamic-import', 'export'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'allow', policies: upwardImports }],
    },
  },

  // The rooms of server/.
  {
    files: ['server/**/*.{ts,tsx}'],
    ignores: SERVER_TESTS,
    plugins: { boundaries },
    settings: {
      'boundaries/elements': serverElements,
      'boundaries/dependency-nodes': ['import', 'dynamic-import', 'export'],
      // The server names its modules as Node runs them compiled (./x.js for x.ts).
      'import/resolver': { typescript: { project: 'tsconfig.server.json' } },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'allow', policies: serverPolicies }],
    },
  },
)
