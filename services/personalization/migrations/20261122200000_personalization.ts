// Personalisation schema v1: one row per Persona (its signed record, the
// produced file's SHA-256), and the shop's signing keys.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('personas')
    .addColumn('persona_id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'uuid', (c) => c.notNull().unique())
    .addColumn('book_id', 'uuid', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('buyer_name', 'text', (c) => c.notNull())
    .addColumn('purchase_date', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('ready', 'failed')`))
    .addColumn('signature', 'text')
    .addColumn('key_id', 'text')
    .addColumn('sha256', 'text')
    .addColumn('pages', 'integer')
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('ready_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('personas_sha256_idx').on('personas').column('sha256').execute();

  await db.schema
    .createTable('signing_keys')
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('private_pem', 'text', (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // At most one active key: two first starts racing cannot both win.
  await sql`CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (active) WHERE active`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('signing_keys').execute();
  await db.schema.dropTable('personas').execute();
}
