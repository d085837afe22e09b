// Orders schema: a printed copy's print job (issue 27). When its Persona's print files pass the
// preflight, the order's printed copy is given to the configured print provider: the shop's own
// printer and courier (the dispatch list), or a print-on-demand house. `status` follows the job
// (queued to be sent, with its attempts and the next; submitted; in production; shipped; rejected or
// cancelled by the house, with why); the house's webhooks move it, and a shipment moves the order.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('print_jobs')
    .addColumn('order_id', 'uuid', (c) => c.primaryKey().references('orders.id').onDelete('cascade'))
    .addColumn('persona_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('queued', 'submitted', 'in_production', 'shipped', 'rejected', 'cancelled')`))
    .addColumn('provider_job_id', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX print_jobs_due_idx ON print_jobs (next_attempt_at) WHERE status = 'queued'`.execute(db);
  await sql`CREATE UNIQUE INDEX print_jobs_provider_job_idx ON print_jobs (provider, provider_job_id) WHERE provider_job_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('print_jobs').execute();
}
