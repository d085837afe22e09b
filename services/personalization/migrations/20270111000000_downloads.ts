// Personalisation schema: a Persona's downloads (issue 24). `persona_downloads` counts each format's
// downloads in the current allowance (`used`, checked and raised in one statement, so parallel
// requests cannot pass the limit) and ever (`total`); `download_allowances` keeps when the current
// allowance began (null: when the Persona was made) and whether the owner stopped it;
// `download_renewals` are the single-use links e-mailed to the buyer, kept only as their SHA-256.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('persona_downloads')
    .addColumn('persona_id', 'text', (c) => c.notNull().references('personas.persona_id').onDelete('cascade'))
    .addColumn('format', 'text', (c) => c.notNull().check(sql`format IN ('pdf', 'epub')`))
    .addColumn('used', 'integer', (c) => c.notNull().check(sql`used >= 0`))
    .addColumn('total', 'integer', (c) => c.notNull().check(sql`total >= 0`))
    .addColumn('last_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('persona_downloads_pkey', ['persona_id', 'format'])
    .execute();
  await db.schema
    .createTable('download_allowances')
    .addColumn('persona_id', 'text', (c) => c.primaryKey().references('personas.persona_id').onDelete('cascade'))
    .addColumn('starts_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('download_renewals')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('persona_id', 'text', (c) => c.notNull().references('personas.persona_id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX download_renewals_persona_idx ON download_renewals (persona_id, created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('download_renewals').execute();
  await db.schema.dropTable('download_allowances').execute();
  await db.schema.dropTable('persona_downloads').execute();
}
