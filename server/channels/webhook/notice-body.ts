// The webhook event of a notice about delivery: its own type (`delivery.failing`,
// `delivery.recovered`, `demo_requests.held`, `whatsapp.unread`, `delivery.stuck`,
// `delivery.dead_letter`), `data.channel` the channel it speaks of (and `data.request` the
// request a stuck or dead-letter notice names), and the same sentences as the notice's mail.
import { noticeText } from '../mail/index.js'
import type { Notice } from '../../store/index.js'

const utc = (at: number): string => new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z')

export function noticeWebhookBody(notice: Notice, timeZone: string): string {
  const meeting = notice.data.meeting
  if (meeting !== undefined) {
    // `demo_request.booked` (also when moved: the same uid, a higher sequence) and
    // `demo_request.booking_cancelled`, with the request's details when it is still stored.
    return JSON.stringify({
      type: notice.type,
      timestamp: notice.createdAt,
      data: {
        id: meeting.request?.id ?? null,
        params: meeting.request?.params ?? null,
        meeting: {
          uid: meeting.uid,
          sequence: meeting.sequence,
          start: utc(meeting.start),
          end: utc(meeting.end),
          url: meeting.room,
          rep: meeting.rep,
        },
      },
    })
  }
  const { subject, lines } = noticeText(notice, timeZone)
  if (notice.type === 'demo_requests.held') {
    return JSON.stringify({
      type: notice.type,
      timestamp: notice.createdAt,
      data: {
        since: notice.data.since,
        held: notice.data.waiting,
        subject,
        text: lines.join('\n'),
      },
    })
  }
  return JSON.stringify({
    type: notice.type,
    timestamp: notice.createdAt,
    data: {
      channel: notice.subject,
      ...(notice.data.unread !== undefined && { unread: notice.data.unread }),
      ...(notice.data.stuck !== undefined && { request: notice.data.stuck }),
      since: notice.data.since,
      ...(notice.data.until !== undefined && { until: notice.data.until }),
      waiting: notice.data.waiting,
      reason: notice.data.reason,
      subject,
      text: lines.join('\n'),
    },
  })
}
