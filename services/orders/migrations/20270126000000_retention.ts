// Orders schema: what the retention round (modules/retention) looks for, each by an index, so a
// round over a million rows reads only the rows it prunes: e-mails sent whose body is still kept,
// webhook events handled, payment attempts and library tokens by age.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX emails_body_kept_idx ON emails (sent_at) WHERE text_body <> ''`.execute(db);
  await sql`CREATE INDEX webhook_events_handled_idx ON webhook_events (handled_at) WHERE handled_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX payment_attempts_created_idx ON payment_attempts (created_at)`.execute(db);
  await sql`CREATE INDEX library_tokens_expires_idx ON library_tokens (expires_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX library_tokens_expires_idx`.execute(db);
  await sql`DROP INDEX payment_attempts_created_idx`.execute(db);
  await sql`DROP INDEX webhook_events_handled_idx`.execute(db);
  await sql`DROP INDEX emails_body_kept_idx`.execute(db);
}
