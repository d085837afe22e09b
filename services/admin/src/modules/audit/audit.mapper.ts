// An audit row as the API shows it.
import type { AuditEntry } from '@persona/contracts';
import type { AuditRow } from './audit.repository';

export const toAuditEntry = (row: AuditRow): AuditEntry => ({
  _id: String(row.id),
  type: row.type,
  summary: row.summary,
  subjectId: row.subject_id,
  actor: row.actor,
  occurredAt: row.occurred_at.toISOString(),
  correlationId: row.correlation_id,
});
