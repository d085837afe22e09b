// A unit of work: one transaction that changes a service's state and may add
// events to its outbox. The events are published only if it commits, and the
// relay is woken right after the commit, so no route, service or consumer has
// to remember to nudge it (nor anything else that must follow a commit, such
// as the catalogue dropping its cached answers).
import type { EventEnvelope } from '@persona/contracts';
import type { Kysely, Transaction } from 'kysely';
import { handleOnce } from './inbox';
import { enqueueEvent } from './outbox';

/** The transaction a unit of work runs in, and how it adds an event to the outbox. */
export interface Work<DB> {
  trx: Transaction<DB>;
  /** Adds the event to the outbox in this transaction: published only if it commits. */
  emit(event: EventEnvelope): Promise<void>;
}

export interface UnitOfWork<DB> {
  /** Runs `work` in one transaction; after it commits, the relay is woken if it emitted events, and `afterCommit` runs. */
  run<T>(work: (work: Work<DB>) => Promise<T>): Promise<T>;
  /**
   * Handles a consumed event at most once for `consumer` (the inbox row is in
   * the same transaction as the effect), as one unit of work.
   */
  handleOnce(consumer: string, event: EventEnvelope, effect: (work: Work<DB>) => Promise<void>): Promise<'handled' | 'duplicate'>;
}

export interface UnitOfWorkOptions<DB> {
  db: Kysely<DB>;
  /** Woken after a commit that added events (the service's outbox relay; none in route tests). */
  relay?: { nudge(): void };
  /** Runs after every commit that emitted events (for example, dropping cached answers). */
  afterCommit?: () => void;
  /**
   * Told after every commit, before the unit of work returns: a database with a read replica
   * notes the primary's WAL position, so this process's later reads see the write (`Database.noteWrite`).
   */
  reads?: { noteWrite(): Promise<void> };
}

export function createUnitOfWork<DB>({ db, relay, afterCommit, reads }: UnitOfWorkOptions<DB>): UnitOfWork<DB> {
  /** Gives `body` a Work bound to `trx`; after `transaction` commits, wakes what must follow if events were added. */
  const unit = async <R, T>(transaction: (body: (trx: Transaction<DB>) => Promise<T>) => Promise<R>, body: (work: Work<DB>) => Promise<T>): Promise<R> => {
    let emitted = 0;
    const result = await transaction((trx) =>
      body({
        trx,
        emit: async (event) => {
          await enqueueEvent(trx, event);
          emitted += 1;
        },
      }),
    );
    if (emitted > 0) {
      afterCommit?.();
      relay?.nudge();
    }
    await reads?.noteWrite();
    return result;
  };
  return {
    run: (work) => unit((body) => db.transaction().execute(body), work),
    handleOnce: (consumer, event, effect) => unit((body) => handleOnce(db, consumer, event, body), effect),
  };
}
