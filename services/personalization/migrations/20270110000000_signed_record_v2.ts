// Personalisation schema v6: the signed record's version 2 (issue 24). A Persona made since signs
// only what its copy prints for all to see, and a gift's buyer and message as salted hashes; their
// salts are kept here (private, like the details themselves) and printed in the copy's colophon,
// for its holder. A Persona made before keeps version 1, the record it was signed with.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('personas')
    .addColumn('record_version', 'smallint', (c) => c.notNull().defaultTo(1))
    .addColumn('buyer_name_salt', 'text')
    .addColumn('message_salt', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('personas').dropColumn('record_version').dropColumn('buyer_name_salt').dropColumn('message_salt').execute();
}
