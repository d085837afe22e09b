// Orders schema v5: the mail relay claims the e-mails it sends (a lease, so more than one orders
// process can send without sending one twice, and a process that dies mid-send leaves its claim to
// expire rather than its e-mails stuck). The partial index is the relay's queue: unsent, oldest first.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('emails').addColumn('claimed_until', 'timestamptz').execute();
  await sql`CREATE INDEX emails_unsent_idx ON emails (created_at) WHERE sent_at IS NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('emails_unsent_idx').execute();
  await db.schema.alterTable('emails').dropColumn('claimed_until').execute();
}
