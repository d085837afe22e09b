// Orders schema v3: the administrator's list at a million orders (DESIGN §11). Newest first is
// the (created_at, id) b-tree read backwards (cursor pages are ranges on it); each filter has
// its own (filter, created_at, id) b-tree, so a filtered page is a range too; an e-mail is found
// exactly or by its beginning (text_pattern_ops), a buyer's name by any part of it, or a near
// spelling (trigrams).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Extensions live in `public`, shared by every service of the database: one creator at a time.
  await sql`SELECT pg_advisory_xact_lock(hashtext('persona.extensions'))`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(db);

  await sql`CREATE INDEX orders_payment_created_idx ON orders (payment_status, created_at, id)`.execute(db);
  await sql`CREATE INDEX orders_delivery_created_idx ON orders (delivery_status, created_at, id)`.execute(db);
  await sql`CREATE INDEX orders_type_created_idx ON orders (delivery_type, created_at, id)`.execute(db);
  await sql`CREATE INDEX orders_email_idx ON orders (lower(email) text_pattern_ops)`.execute(db);
  await sql`CREATE INDEX orders_name_trgm_idx ON orders USING gin (lower(full_name) public.gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['orders_name_trgm_idx', 'orders_email_idx', 'orders_type_created_idx', 'orders_delivery_created_idx', 'orders_payment_created_idx']) {
    await db.schema.dropIndex(index).execute();
  }
}
