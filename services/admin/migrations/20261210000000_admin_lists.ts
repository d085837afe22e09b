// Admin schema v3: the administrator's lists at any size (DESIGN §11). Each list's order
// (newest first, ties by the key) is a b-tree read backwards, so a cursor page is a range on it;
// the audit log's type filter has its own (type, occurred_at, id) b-tree; feedback is found by an
// e-mail's beginning (text_pattern_ops) or a name's part or near spelling (trigrams), a
// subscriber by the beginning of the address.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Extensions live in `public`, shared by every service of the database: one creator at a time.
  await sql`SELECT pg_advisory_xact_lock(hashtext('persona.extensions'))`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(db);

  await db.schema.dropIndex('feedback_created_idx').execute();
  await sql`CREATE INDEX feedback_created_id_idx ON feedback (created_at, id)`.execute(db);
  await sql`CREATE INDEX feedback_email_idx ON feedback (lower(email) text_pattern_ops)`.execute(db);
  await sql`CREATE INDEX feedback_name_trgm_idx ON feedback USING gin (lower(name) public.gin_trgm_ops)`.execute(db);

  await sql`CREATE INDEX subscribers_subscribed_idx ON subscribers (subscribed_at, email)`.execute(db);
  await sql`CREATE INDEX subscribers_email_pattern_idx ON subscribers (email text_pattern_ops)`.execute(db);

  await db.schema.dropIndex('audit_log_occurred_idx').execute();
  await sql`CREATE INDEX audit_log_occurred_id_idx ON audit_log (occurred_at, id)`.execute(db);
  await sql`CREATE INDEX audit_log_type_idx ON audit_log (type, occurred_at, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    'audit_log_type_idx',
    'audit_log_occurred_id_idx',
    'subscribers_email_pattern_idx',
    'subscribers_subscribed_idx',
    'feedback_name_trgm_idx',
    'feedback_email_idx',
    'feedback_created_id_idx',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema.createIndex('feedback_created_idx').on('feedback').column('created_at').execute();
  await db.schema.createIndex('audit_log_occurred_idx').on('audit_log').column('occurred_at').execute();
}
