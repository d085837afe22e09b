// Admin schema v1: administrators and their sessions, feedback and contact
// messages, newsletter subscribers, and the audit log fed by events.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('admins')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_failed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE UNIQUE INDEX admins_email_key ON admins (lower(email))`.execute(db);

  await db.schema
    .createTable('sessions')
    .addColumn('jti', 'uuid', (c) => c.primaryKey())
    .addColumn('admin_id', 'uuid', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('issued_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('feedback')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('book_id', 'uuid')
    .addColumn('book_title', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('feedback_created_idx').on('feedback').column('created_at').execute();

  await db.schema
    .createTable('subscribers')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('subscribed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text')
    .addColumn('actor', 'text')
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_occurred_idx').on('audit_log').column('occurred_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['audit_log', 'subscribers', 'feedback', 'sessions', 'admins']) await db.schema.dropTable(table).execute();
}
