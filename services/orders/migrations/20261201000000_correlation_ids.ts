// Orders and e-mails keep the correlation id of the user action behind them:
// order.paid carries the checkout's id whichever of verify, webhook or
// reconciler sees the payment, and the mail relay logs with the id of the
// Persona's events.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('correlation_id', 'text').execute();
  await db.schema.alterTable('emails').addColumn('correlation_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('emails').dropColumn('correlation_id').execute();
  await db.schema.alterTable('orders').dropColumn('correlation_id').execute();
}
