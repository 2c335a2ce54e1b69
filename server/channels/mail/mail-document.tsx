// The HTML every mail shares: a Spanish document in UTF-8, one plain type, and the small grey
// line at its foot. React renders it (renderToStaticMarkup), so every text and attribute a
// visitor wrote is escaped the one way React escapes, never by hand.
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'

const BODY = { fontFamily: 'Arial,Helvetica,sans-serif', fontSize: '15px', color: '#1a1a1a' }
const FOOT = { color: '#666', fontSize: '12px' }

/** The mail's whole HTML, titled `title`, with `children` as its body and `foot` under it. */
export function mailHtml(title: string, children: ReactNode, foot: string): string {
  const page = (
    <html lang="es">
      <head>
        <meta charSet="utf-8" />
        <title>{title}</title>
      </head>
      <body style={BODY}>
        {children}
        <p style={FOOT}>{foot}</p>
      </body>
    </html>
  )
  return `<!doctype html>\n${renderToStaticMarkup(page)}\n`
}
