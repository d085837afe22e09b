// Admin schema v4: one order's (or book's) entries of the audit log, newest first — the order
// page's timeline (issue 23) — read from an index instead of the whole log.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX audit_log_subject_idx ON audit_log (subject_id, occurred_at, id) WHERE subject_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX audit_log_subject_idx`.execute(db);
}
