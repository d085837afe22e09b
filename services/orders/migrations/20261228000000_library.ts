// Orders schema v9: a buyer's library without a password (DESIGN §12). A sign-in link's token
// and the session it opens are kept only as their SHA-256 (a leaked table opens nothing), with
// the address they open and when they stop working; a link is used once. The e-mail carrying a
// link belongs to no order.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('library_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('link', 'session')`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX library_tokens_email_idx ON library_tokens (email, created_at)`.execute(db);
  await sql`ALTER TABLE emails ALTER COLUMN order_id DROP NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM emails WHERE order_id IS NULL`.execute(db);
  await sql`ALTER TABLE emails ALTER COLUMN order_id SET NOT NULL`.execute(db);
  await db.schema.dropTable('library_tokens').execute();
}
