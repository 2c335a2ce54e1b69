import { describe, expect, it } from 'vitest'
import { classifyPath } from './request-path.js'

describe('classifyPath', () => {
  it.each([
    ['/', { kind: 'file', file: '/index.html' }],
    ['/?utm_source=x', { kind: 'file', file: '/index.html' }],
    ['/tyc', { kind: 'file', file: '/tyc.html' }],
    ['/tyc/', { kind: 'file', file: '/tyc.html' }],
    ['/index.html', { kind: 'file', file: '/index.html' }],
    ['/assets/app-abc.js', { kind: 'file', file: '/assets/app-abc.js' }],
    ['/assets/noext', { kind: 'file', file: '/assets/noext' }],
    ['/assets/', { kind: 'not-found' }],
    ['/robots.txt', { kind: 'file', file: '/robots.txt' }],
    ['/a%20b.png', { kind: 'file', file: '/a b.png' }],
    ['/foo', { kind: 'redirect' }],
    ['/foo/bar/', { kind: 'redirect' }],
    ['/assets', { kind: 'redirect' }],
    ['/.site.json', { kind: 'not-found' }],
    ['/%2esite.json', { kind: 'not-found' }],
    ['/.deploy/security-headers.conf', { kind: 'not-found' }],
    ['/_headers', { kind: 'not-found' }],
    ['/_redirects', { kind: 'not-found' }],
    ['/api/v1.0/email/send', { kind: 'not-found' }],
    ['/index.html.br', { kind: 'not-found' }],
    ['/index.html.gz', { kind: 'not-found' }],
    ['/assets/app-abc.js.BR', { kind: 'not-found' }],
    ['/%69ndex.html.br', { kind: 'not-found' }],
    ['/../etc/passwd', { kind: 'bad-request' }],
    ['/%2e%2e/etc/passwd', { kind: 'bad-request' }],
    ['/assets/..%2f..%2fx.js', { kind: 'bad-request' }],
    ['/a\\b', { kind: 'bad-request' }],
    ['/a%5cb', { kind: 'bad-request' }],
    ['/x%00.js', { kind: 'bad-request' }],
    ['/%E0%A4%A', { kind: 'bad-request' }],
    ['http://evil/', { kind: 'bad-request' }],
    ['*', { kind: 'bad-request' }],
  ])('%s', (url, expected) => {
    expect(classifyPath(url)).toEqual(expected)
  })

  it('decodes once: a double-encoded traversal is just a missing file name', () => {
    expect(classifyPath('/%252e%252e%252fsecret.txt')).toEqual({
      kind: 'file',
      file: '/%2e%2e%2fsecret.txt',
    })
  })
})
