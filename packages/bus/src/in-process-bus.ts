// The embedded transport: the same at-least-once contract as RabbitMQ, with
// the queues stored as rows in the given database (PGlite in the embedded
// shop, or PostgreSQL), so nothing is lost when the process dies.
//
// A "queue" is the set of bus_messages rows with that queue name; bindings are
// rows in bus_bindings, kept across restarts like durable AMQP bindings.
// Consumers claim ready rows with a lease (locked_until + lock_token); an ack
// deletes the row, a failure schedules the next try or marks it dead (the
// dead-letter queue is `dead = true`). Every ack is conditional on the lock
// token, so a consumer that lost its lease (closed, crashed, too slow) cannot
// acknowledge a message someone else now holds.
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@persona/contracts';
import { migrateToLatest, type Database } from '@persona/db';
import { sql, type Kysely } from 'kysely';
import { eventLogger } from './event-logger';
import { inProcessBusMigrations } from './in-process-migrations';
import { matchesRoutingKey } from './routing-key';
import { SILENT_LOGGER } from './silent-logger';
import { errorMessage, resolveSpec, retryDelayFor, type ResolvedSpec } from './subscription-options';
import {
  BusUnavailableError,
  type BusLogger,
  type CloseOptions,
  type DeadLetter,
  type EventBus,
  type Subscription,
  type EventBinding,
  type SubscriptionSpec,
  EventRefusedError,
  type EventCheck,
} from './types';

export interface InProcessBusOptions<DB> {
  /** The bus's own schema (e.g. `bus`); its tables are migrated into it on first use (and used in SQL, whatever `DB` names). */
  database: Database<DB>;
  logger?: BusLogger;
  /** How often consumers look for rows they were not woken for (other processes, due retries). Default 1000. */
  pollIntervalMs?: number;
  /** How long a claimed message stays reserved without being renewed (a crashed consumer's messages come back after it). Default 30000. */
  leaseMs?: number;
  /** The shop's events checked on publish and on consume (see EventCheck). */
  check?: EventCheck;
}

interface ClaimedRow {
  id: string | number;
  envelope: unknown;
  attempts: number;
  deliveries: number;
}

const interval = (ms: number) => sql`(${Math.max(0, Math.round(ms))}::integer * interval '1 millisecond')`;

export function createInProcessBus<DB>(opts: InProcessBusOptions<DB>): EventBus {
  const { database } = opts;
  const db: Kysely<DB> = database.db;
  const logger = opts.logger ?? SILENT_LOGGER;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const leaseMs = opts.leaseMs ?? 30_000;
  const consumers = new Set<Consumer>();
  let closed = false;
  let migrated = false;

  const ready = migrateToLatest(database, { getMigrations: async () => inProcessBusMigrations }).then(() => {
    migrated = true;
  });
  ready.catch((err) => logger.error({ err: errorMessage(err), schema: database.schema }, 'in-process bus: migration failed'));

  async function usable(): Promise<void> {
    if (closed) throw new BusUnavailableError('the in-process bus is closed');
    await ready;
  }

  class Consumer implements Subscription {
    readonly token = randomUUID();
    readonly inFlight = new Set<string>();
    /** No new claims (closing, possibly still draining running handlers). */
    stopping = false;
    /** Leases handed back: outcomes of handlers still running are discarded. */
    closed = false;
    private closing: Promise<void> | null = null;
    private idle: (() => void) | null = null;
    private pumping: Promise<void> | null = null;
    private again = false;
    private readonly pollTimer: NodeJS.Timeout;
    private readonly leaseTimer: NodeJS.Timeout;
    private readonly retryTimers = new Set<NodeJS.Timeout>();

    constructor(readonly spec: ResolvedSpec) {
      this.pollTimer = setInterval(() => this.wake(), pollIntervalMs);
      this.leaseTimer = setInterval(() => void this.renewLeases(), Math.max(50, Math.floor(leaseMs / 3)));
    }

    wake(): void {
      if (this.stopping) return;
      if (this.pumping) {
        this.again = true;
        return;
      }
      this.pumping = this.pump()
        .catch((err) => logger.warn({ err: errorMessage(err), queue: this.spec.queue }, 'in-process bus: claiming messages failed'))
        .finally(() => {
          this.pumping = null;
        });
    }

    private async pump(): Promise<void> {
      do {
        this.again = false;
        const capacity = this.spec.prefetch - this.inFlight.size;
        if (capacity <= 0) return; // a finishing handler wakes us
        const { rows } = await sql<ClaimedRow>`
          UPDATE bus_messages
          SET locked_until = now() + ${interval(leaseMs)}, lock_token = ${this.token}, deliveries = deliveries + 1
          WHERE id IN (
            SELECT id FROM bus_messages
            WHERE queue = ${this.spec.queue} AND NOT dead AND available_at <= now()
              AND (locked_until IS NULL OR locked_until < now())
            ORDER BY id
            LIMIT ${capacity}
            FOR UPDATE SKIP LOCKED)
          RETURNING id, envelope, attempts, deliveries`.execute(db);
        if (this.stopping) return; // close() releases them
        rows.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
        for (const row of rows) {
          this.inFlight.add(String(row.id));
          void this.handle(row);
        }
        if (rows.length === capacity) this.again = true;
      } while (this.again && !this.stopping);
    }

    private async handle(row: ClaimedRow): Promise<void> {
      const id = String(row.id);
      const attempt = row.attempts + 1;
      const event = (typeof row.envelope === 'string' ? JSON.parse(row.envelope) : row.envelope) as EventEnvelope;
      const log = eventLogger(logger, event, { queue: this.spec.queue });
      const problem = opts.check?.(event);
      if (problem) {
        // Never handed to a handler, never retried: it would fail the same way every time.
        await sql`
          UPDATE bus_messages
          SET dead = true, attempts = ${attempt}, last_error = ${`malformed message: ${problem}`}, locked_until = NULL, lock_token = NULL
          WHERE id = ${id}::bigint AND lock_token = ${this.token}`.execute(db);
        log.error({ err: problem }, 'malformed message; dead-lettered');
        return;
      }
      const started = Date.now();
      let failure: unknown = null;
      try {
        await this.spec.handler(event, { attempt, redelivered: row.deliveries > 1 });
      } catch (err) {
        failure = err ?? new Error('handler failed');
      }
      try {
        if (this.closed) {
          // Closed before the ack: the row already went back to the queue.
          log.info({ attempt }, 'event handler finished after its subscription closed; the message was handed back');
          return;
        }
        if (failure === null) {
          await sql`DELETE FROM bus_messages WHERE id = ${id}::bigint AND lock_token = ${this.token}`.execute(db);
          log.debug?.({ attempt, ms: Date.now() - started }, 'event handled');
        } else if (attempt >= this.spec.maxAttempts) {
          await sql`
            UPDATE bus_messages
            SET dead = true, attempts = ${attempt}, last_error = ${errorMessage(failure)}, locked_until = NULL, lock_token = NULL
            WHERE id = ${id}::bigint AND lock_token = ${this.token}`.execute(db);
          log.error({ attempts: attempt, err: errorMessage(failure) }, 'event dead-lettered');
        } else {
          const delay = retryDelayFor(this.spec.retryDelaysMs, attempt);
          await sql`
            UPDATE bus_messages
            SET attempts = ${attempt}, last_error = ${errorMessage(failure)}, available_at = now() + ${interval(delay)},
                locked_until = NULL, lock_token = NULL
            WHERE id = ${id}::bigint AND lock_token = ${this.token}`.execute(db);
          log.warn({ attempt, retryInMs: delay, err: errorMessage(failure) }, 'event handler failed; will retry');
          if (this.stopping) return; // whoever consumes next finds it due
          const timer = setTimeout(() => {
            this.retryTimers.delete(timer);
            this.wake();
          }, delay + 5);
          this.retryTimers.add(timer);
        }
      } catch (err) {
        // The lease runs out and the message is delivered again: at-least-once.
        log.warn({ err: errorMessage(err) }, 'in-process bus: acknowledging failed');
      } finally {
        this.inFlight.delete(id);
        if (this.inFlight.size === 0) this.idle?.();
        this.wake();
      }
    }

    private async renewLeases(): Promise<void> {
      if (this.closed || this.inFlight.size === 0) return;
      const ids = [...this.inFlight].map((id) => sql`${id}::bigint`);
      try {
        await sql`
          UPDATE bus_messages SET locked_until = now() + ${interval(leaseMs)}
          WHERE lock_token = ${this.token} AND id IN (${sql.join(ids)})`.execute(db);
      } catch (err) {
        logger.warn({ err: errorMessage(err), queue: this.spec.queue }, 'in-process bus: renewing leases failed');
      }
    }

    close(options: CloseOptions = {}): Promise<void> {
      this.closing ??= this.shutDown(options.graceMs ?? 0);
      return this.closing;
    }

    private async shutDown(graceMs: number): Promise<void> {
      this.stopping = true;
      consumers.delete(this);
      clearInterval(this.pollTimer);
      for (const timer of this.retryTimers) clearTimeout(timer);
      await this.pumping;
      if (graceMs > 0 && this.inFlight.size > 0) {
        // Running handlers may finish and be acknowledged; their leases keep being renewed meanwhile.
        const finished = new Promise<void>((resolve) => (this.idle = resolve));
        let timer: NodeJS.Timeout | undefined;
        const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
        await Promise.race([finished, expired]);
        clearTimeout(timer);
        if (this.inFlight.size > 0)
          logger.warn(
            { queue: this.spec.queue, handing: this.inFlight.size, graceMs },
            'in-process bus: handlers still running at the deadline; handing their messages back',
          );
      }
      this.closed = true;
      clearInterval(this.leaseTimer);
      // Unacknowledged messages go back to the queue at once (a crash gets the same via lease expiry).
      await sql`UPDATE bus_messages SET locked_until = NULL, lock_token = NULL WHERE lock_token = ${this.token}`.execute(db);
    }
  }

  return {
    kind: 'in-process',

    async publish(event) {
      const problem = opts.check?.(event);
      if (problem) throw new EventRefusedError(problem);
      await usable();
      const { rows: bindings } = await sql<{ queue: string; pattern: string }>`SELECT queue, pattern FROM bus_bindings`.execute(db);
      const queues = [...new Set(bindings.filter((b) => matchesRoutingKey(b.pattern, event.type)).map((b) => b.queue))].sort();
      if (queues.length === 0) {
        logger.debug?.({ type: event.type, eventId: event.id }, 'in-process bus: no queue bound for event');
        return;
      }
      const envelope = JSON.stringify(event);
      await sql`
        INSERT INTO bus_messages (queue, message_id, envelope)
        VALUES ${sql.join(queues.map((q) => sql`(${q}, ${event.id}, ${envelope}::jsonb)`))}`.execute(db);
      for (const consumer of consumers) if (queues.includes(consumer.spec.queue)) consumer.wake();
    },

    async subscribe<B extends EventBinding>(input: SubscriptionSpec<B>) {
      const spec = resolveSpec(input);
      await usable();
      await sql`
        INSERT INTO bus_bindings (queue, pattern)
        VALUES ${sql.join(spec.bindings.map((p) => sql`(${spec.queue}, ${p})`))}
        ON CONFLICT DO NOTHING`.execute(db);
      const consumer = new Consumer(spec);
      consumers.add(consumer);
      consumer.wake();
      return consumer;
    },

    async deadLetters(queue, limit = 100) {
      await usable();
      const { rows } = await sql<{ envelope: unknown; attempts: number; last_error: string | null }>`
        SELECT envelope, attempts, last_error FROM bus_messages
        WHERE queue = ${queue} AND dead ORDER BY id LIMIT ${limit}`.execute(db);
      return rows.map((r): DeadLetter => ({
        event: (typeof r.envelope === 'string' ? JSON.parse(r.envelope) : r.envelope) as EventEnvelope,
        attempts: r.attempts,
        lastError: r.last_error ?? '',
        queue,
      }));
    },

    async queueDepth(queue) {
      await usable();
      const { rows } = await sql<{ ready: string | number; delayed: string | number; dead: string | number }>`
        SELECT
          count(*) FILTER (WHERE NOT dead AND available_at <= now() AND (locked_until IS NULL OR locked_until < now())) AS ready,
          count(*) FILTER (WHERE NOT dead AND available_at > now()) AS delayed,
          count(*) FILTER (WHERE dead) AS dead
        FROM bus_messages WHERE queue = ${queue}`.execute(db);
      const row = rows[0];
      return { ready: Number(row?.ready ?? 0), delayed: Number(row?.delayed ?? 0), dead: Number(row?.dead ?? 0) };
    },

    isReady() {
      return migrated && !closed;
    },

    async close(options?: CloseOptions) {
      if (closed) return;
      closed = true;
      // The consumers set shrinks as each closes; close them all together so the grace is shared.
      await Promise.all(
        [...consumers].map((c) => c.close(options).catch((err) => logger.warn({ err: errorMessage(err) }, 'in-process bus: closing a subscription failed'))),
      );
      await ready.catch(() => undefined);
    },
  };
}
