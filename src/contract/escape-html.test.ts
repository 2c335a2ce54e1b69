import { describe, expect, it } from 'vitest'
import { escapeHtml } from './escape-html.js'

describe('escapeHtml', () => {
  it('keeps text from opening a tag or closing an attribute, and leaves the rest as written', () => {
    expect(escapeHtml('Precios & "alertas" <b>ya</b> · ñ')).toBe(
      'Precios &amp; &quot;alertas&quot; &lt;b&gt;ya&lt;/b&gt; · ñ',
    )
  })
})
