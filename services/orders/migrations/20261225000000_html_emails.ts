// Orders schema v6: every e-mail has an HTML part beside its plain text (both made from one
// description by mail/email-body, so they say the same).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('emails').addColumn('html_body', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('emails').dropColumn('html_body').execute();
}
