/**
 * Text made safe to write into HTML, in an element or inside a double-quoted attribute: the
 * page's <head> and prerendered HTML, and the sales team's mails. Every attribute they write is
 * double-quoted, so `'` needs no escape.
 */
export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
