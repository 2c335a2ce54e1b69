// A demo request as the intake takes it and the store keeps it: its id, when it came, and the
// template params the page sent (the fields of the form and the campaign).
import { randomUUID } from 'node:crypto'

export interface DemoRequestRecord {
  id: string
  receivedAt: string
  serviceId: string
  templateId: string
  params: Record<string, string>
}

export function newRecord(
  serviceId: string,
  templateId: string,
  params: Record<string, string>,
): DemoRequestRecord {
  return { id: randomUUID(), receivedAt: new Date().toISOString(), serviceId, templateId, params }
}
