// A printed copy's print job as the orders schema keeps it (issue 27; printing/print-jobs.ts hands it
// to the print provider and moves it): queued in the transaction that records the Persona ready
// with print files that passed the preflight.
import { sql, type Transaction } from 'kysely';
import type { OrdersDB } from '../../db';
import type { OrderRow } from './orders.repository';

/** The print provider of today's flow: the shop's own printer and courier, from the dispatch list. */
export const OWN_COURIER = 'own-courier';

/** Queues the print job of a printed order whose print files are ready; once per order. */
export async function queuePrintJob(trx: Transaction<OrdersDB>, order: Pick<OrderRow, 'id' | 'persona_id' | 'delivery_type'>, provider: string): Promise<void> {
  if (order.delivery_type !== 'physical') return;
  await trx
    .insertInto('print_jobs')
    .values({ order_id: order.id, persona_id: order.persona_id, provider, status: 'queued', next_attempt_at: new Date() })
    // A re-issue's new files replace a job the house has not taken yet; one under way stays.
    .onConflict((oc) =>
      oc
        .column('order_id')
        .doUpdateSet({ persona_id: order.persona_id, attempts: 0, next_attempt_at: new Date(), last_error: null, updated_at: sql`now()` })
        .where('print_jobs.status', '=', 'queued'),
    )
    .execute();
}
