// Idempotent consumers: the message id is recorded in the same transaction as
// the effect, so a redelivered message has no second effect.
import type { EventEnvelope } from '@persona/contracts';
import { sql, type Kysely, type Transaction } from 'kysely';

/** Runs `effect` once per message and consumer, in the transaction that records the message in the service's inbox. */
export async function handleOnce<DB>(
  db: Kysely<DB>,
  consumer: string,
  event: EventEnvelope,
  effect: (trx: Transaction<DB>) => Promise<void>,
): Promise<'handled' | 'duplicate'> {
  return db.transaction().execute(async (trx) => {
    // A concurrent duplicate blocks on the primary key until this commits, then finds the row.
    const { rows } = await sql<{ message_id: string }>`
      INSERT INTO inbox (message_id, consumer) VALUES (${event.id}, ${consumer})
      ON CONFLICT (message_id, consumer) DO NOTHING
      RETURNING message_id`.execute(trx);
    if (rows.length === 0) return 'duplicate';
    await effect(trx);
    return 'handled';
  });
}
