// A notice's mail as HTML: one paragraph per sentence, the notice's id at the foot.
import { mailHtml } from './mail-document.js'

export function noticeMailHtml(subject: string, lines: readonly string[], foot: string): string {
  return mailHtml(
    subject,
    lines.map((line, index) => <p key={index}>{line}</p>),
    foot,
  )
}
