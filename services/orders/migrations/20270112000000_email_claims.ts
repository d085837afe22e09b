// Orders schema: a mail relay's claim on an e-mail is its own (issue 25). Each claim carries a
// token; the relay renews its lease under that token just before it sends, and records the sending
// under it, so a relay whose lease ran out (a slow SMTP batch) while another took the e-mail over
// sends nothing more of it and records nothing over the other's work.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('emails').addColumn('claim_token', 'uuid').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('emails').dropColumn('claim_token').execute();
}
