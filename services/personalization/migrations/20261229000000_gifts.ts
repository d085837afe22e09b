// Personalisation schema v2: a gift's recipient and message (DESIGN §12), signed with the rest of
// the record and printed instead of the buyer's name.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('personas').addColumn('recipient_name', 'text').addColumn('message', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('personas').dropColumn('recipient_name').dropColumn('message').execute();
}
