// Transactional outbox: services write the event row in the same transaction
// as their state change (enqueueEvent); the relay publishes committed rows and
// marks them sent.
//
// Claiming is a short transaction (SELECT … FOR UPDATE SKIP LOCKED, then a
// lease in `locked_until`), and publishing happens after it commits. Holding
// the row lock across the publish would pin a pool connection per relay, and
// on embedded PGlite (one session for the whole process) it would block every
// other query, including the in-process bus's own insert: a deadlock. The
// lease keeps several relays from publishing the same row; only a relay that
// dies mid-publish (lease expiry) can cause a second publish, which the
// consumers' inbox absorbs.
import type { EventEnvelope } from '@persona/contracts';
import { sql, type Kysely } from 'kysely';
import { errorMessage } from './subscription-options';
import { SILENT_LOGGER } from './silent-logger';
import type { BusLogger, EventBus } from './types';

// The outbox and inbox are read and written in SQL: each service's schema has them, whatever else
// its database type (`DB`) names.

/** Inserts the event into the caller's transaction; it is published only if that transaction commits. */
export async function enqueueEvent<DB>(trx: Kysely<DB>, event: EventEnvelope): Promise<void> {
  await sql`
    INSERT INTO outbox (event_id, type, envelope)
    VALUES (${event.id}, ${event.type}, ${JSON.stringify(event)}::jsonb)`.execute(trx);
}

/** Events committed but not yet published, and how long the oldest has waited (0 when none). */
export async function outboxBacklog<DB>(db: Kysely<DB>): Promise<{ unpublished: number; oldestAgeSeconds: number }> {
  const { rows } = await sql<{ unpublished: string | number; oldest_age: string | number | null }>`
    SELECT count(*) AS unpublished, extract(epoch FROM now() - min(created_at)) AS oldest_age
    FROM outbox WHERE published_at IS NULL`.execute(db);
  const row = rows[0];
  return { unpublished: Number(row?.unpublished ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.oldest_age ?? 0)) };
}

export interface OutboxRelay {
  /** Starts polling in the background (idempotent). */
  start(): void;
  /** Wakes the relay at once; call it after committing a transaction that enqueued events. */
  nudge(): void;
  /** Publishes everything pending now (rejects if a publish fails). */
  drain(): Promise<void>;
  /** Stops polling and waits for the batch in flight. */
  stop(): Promise<void>;
  /** Deletes published outbox rows and inbox rows older than the retention now (the relay also does it every `pruneEveryMs`). */
  prune(): Promise<{ outbox: number; inbox: number }>;
}

export interface OutboxRelayOptions<DB> {
  db: Kysely<DB>;
  bus: EventBus;
  logger?: BusLogger;
  /** Idle poll interval; other processes' rows and retries are found this often. Default 1000. */
  pollIntervalMs?: number;
  /** Rows claimed per round. Default 100. */
  batchSize?: number;
  /** How long a claimed row is reserved for this relay. Default 60000. */
  leaseMs?: number;
  /** Back-off after failed rounds: doubles from `initial` up to `max`. Default 500 ms and 30 s. */
  backoffMs?: { initial: number; max: number };
  /**
   * How long published outbox rows and inbox rows are kept (EVENTS_RETENTION_DAYS). An inbox row
   * must outlive any redelivery of its message, a dead-lettered one replayed by hand included.
   * Default 14 days.
   */
  retentionMs?: number;
  /** How often the relay prunes. Default one hour (the first prune runs at start). */
  pruneEveryMs?: number;
  /**
   * The name of the PostgreSQL advisory lock a prune runs under ("catalogue:events-prune"), so the
   * replicas of a service prune one at a time: a replica that finds it held skips its turn. None:
   * every prune runs (one process).
   */
  pruneLock?: string;
}

export const DEFAULT_EVENT_RETENTION_MS = 14 * 24 * 3600_000;
/** Rows deleted per statement, so a prune never holds many locks or a long transaction. */
const PRUNE_BATCH = 1000;

export function createOutboxRelay<DB>(opts: OutboxRelayOptions<DB>): OutboxRelay {
  const { db, bus } = opts;
  const logger = opts.logger ?? SILENT_LOGGER;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const batchSize = opts.batchSize ?? 100;
  const leaseMs = opts.leaseMs ?? 60_000;
  const backoff = opts.backoffMs ?? { initial: 500, max: 30_000 };
  const retentionMs = opts.retentionMs ?? DEFAULT_EVENT_RETENTION_MS;
  const pruneEveryMs = opts.pruneEveryMs ?? 3600_000;
  let prunedAt = 0;

  let loop: Promise<void> | null = null;
  let stopped = false;
  let failures = 0;
  let wake: (() => void) | null = null;
  let nudged = false;
  // The background loop and drain() never run a round at the same time.
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };

  /** One round: claim, publish, mark. Returns the number of rows claimed. */
  async function publishRound(): Promise<number> {
    const { rows } = await sql<{ id: string | number; envelope: unknown }>`
      UPDATE outbox SET locked_until = now() + ${leaseMs}::integer * interval '1 millisecond'
      WHERE id IN (
        SELECT id FROM outbox
        WHERE published_at IS NULL AND (locked_until IS NULL OR locked_until < now())
        ORDER BY id
        LIMIT ${batchSize}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, envelope`.execute(db);
    if (rows.length === 0) return 0;
    rows.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    // Published in insertion order on one channel; confirms are awaited together.
    const results = await Promise.allSettled(
      rows.map((row) => bus.publish((typeof row.envelope === 'string' ? JSON.parse(row.envelope) : row.envelope) as EventEnvelope)),
    );
    const sent = rows.filter((_, i) => results[i]!.status === 'fulfilled').map((r) => String(r.id));
    const failed = rows.filter((_, i) => results[i]!.status === 'rejected').map((r) => String(r.id));
    if (sent.length > 0) {
      await sql`UPDATE outbox SET published_at = now(), locked_until = NULL WHERE id IN (${sql.join(sent.map((id) => sql`${id}::bigint`))})`.execute(db);
    }
    if (failed.length > 0) {
      const reason = errorMessage((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason);
      await sql`
        UPDATE outbox SET locked_until = NULL, attempts = attempts + 1, last_error = ${reason}
        WHERE id IN (${sql.join(failed.map((id) => sql`${id}::bigint`))})`.execute(db);
      throw new Error(`outbox: ${failed.length} of ${rows.length} events not published: ${reason}`);
    }
    return rows.length;
  }

  /** Prunes under `pruneLock` when one is named: nothing, when another replica holds it. */
  async function prune(): Promise<{ outbox: number; inbox: number }> {
    const lock = opts.pruneLock;
    if (!lock) return pruneWith(db);
    return db.connection().execute(async (conn) => {
      const key = sql`hashtextextended(${lock}, 0)`;
      const { rows } = await sql<{ got: boolean }>`SELECT pg_try_advisory_lock(${key}) AS got`.execute(conn);
      if (!rows[0]?.got) return { outbox: 0, inbox: 0 };
      try {
        return await pruneWith(conn);
      } finally {
        await sql`SELECT pg_advisory_unlock(${key})`.execute(conn);
      }
    });
  }

  async function pruneWith(db: Kysely<DB>): Promise<{ outbox: number; inbox: number }> {
    const before = sql`now() - ${retentionMs}::bigint * interval '1 millisecond'`;
    const batches = async (statement: () => Promise<{ numAffectedRows?: bigint }>) => {
      let total = 0;
      for (;;) {
        const n = Number((await statement()).numAffectedRows ?? 0);
        total += n;
        if (n < PRUNE_BATCH) return total;
      }
    };
    const outbox = await batches(() =>
      sql`DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE published_at < ${before} ORDER BY published_at LIMIT ${PRUNE_BATCH})`.execute(db),
    );
    const inbox = await batches(() =>
      sql`DELETE FROM inbox WHERE (message_id, consumer) IN (SELECT message_id, consumer FROM inbox WHERE handled_at < ${before} ORDER BY handled_at LIMIT ${PRUNE_BATCH})`.execute(
        db,
      ),
    );
    if (outbox + inbox > 0) logger.info({ outbox, inbox, retentionDays: retentionMs / 86_400_000 }, 'old outbox and inbox rows pruned');
    return { outbox, inbox };
  }

  function sleep(ms: number, interruptible: boolean): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      // A nudge does not cut a failure back-off short (the broker is likely down), stop() does.
      wake = interruptible ? done : () => (stopped ? done() : undefined);
    });
  }

  async function run(): Promise<void> {
    while (!stopped) {
      let delay = pollIntervalMs;
      try {
        nudged = false;
        while (!stopped && (await exclusive(publishRound)) === batchSize);
        if (!stopped && Date.now() - prunedAt >= pruneEveryMs) {
          prunedAt = Date.now();
          await exclusive(prune);
        }
        if (failures > 0) logger.info({ failures }, 'outbox relay recovered');
        failures = 0;
      } catch (err) {
        failures++;
        delay = Math.min(backoff.max, backoff.initial * 2 ** (failures - 1));
        logger.warn({ err: errorMessage(err), failures, retryInMs: delay }, 'outbox relay round failed');
      }
      if (stopped) break;
      if (nudged && failures === 0) continue;
      await sleep(delay, failures === 0);
    }
  }

  return {
    start() {
      if (loop || stopped) return;
      loop = run();
    },
    nudge() {
      nudged = true;
      wake?.();
    },
    async drain() {
      while ((await exclusive(publishRound)) === batchSize);
    },
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      await exclusive(async () => undefined);
    },
    prune: () => exclusive(prune),
  };
}
