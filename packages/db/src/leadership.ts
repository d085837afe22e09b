// One replica at a time (issue 25): the work that must not run in two processes at once (the
// reconciler that asks Razorpay about unpaid orders, the refund poller, the coupon holds, the
// invoice PDFs) runs only in the replica that holds a PostgreSQL advisory lock named after its
// service. The lock is a session's: the leader keeps one connection for it, checked every
// `checkMs`; when the leader dies, its connection closes, PostgreSQL lets the lock go, and another
// replica takes it on its next try (every `retryMs`). Embedded (PGlite) there is one process: it
// leads.
import { sql } from 'kysely';
import type { Database } from './database';

export interface LeadershipLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface Leadership {
  /** Whether this replica runs the one-at-a-time work now. */
  readonly leading: boolean;
  /** Tries at once (resolving when that first try has an answer), then every `retryMs` while another replica leads. */
  start(): Promise<void>;
  /** Gives the lock up (its connection back to the pool). */
  stop(): Promise<void>;
}

export interface LeadershipOptions {
  /** How often a follower tries to take the lead: a dead leader is replaced within this. */
  retryMs?: number;
  /** How often the leader checks that its connection (and so its lock) still holds. */
  checkMs?: number;
  logger?: LeadershipLogger;
}

/** Waits `ms`, or less when `signal` aborts; not at all when it already has (an abort event fires once). */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * The leadership of `name` ("orders") among the replicas sharing `database`: the advisory lock's key
 * is the hash of the schema and the name, so services and test schemas never contend.
 */
export function leadership<DB>(database: Database<DB>, name: string, options: LeadershipOptions = {}): Leadership {
  const retryMs = options.retryMs ?? 15_000;
  const checkMs = options.checkMs ?? 5_000;
  const lockName = `${database.schema}:${name}`;
  if (database.kind === 'pglite') {
    return { leading: true, start: async () => undefined, stop: async () => undefined };
  }

  let leading = false;
  const stopping = new AbortController();
  let loop: Promise<void> | null = null;

  /** One hold of the lock: false at once when another replica has it; else holds it until stopped or the connection fails. */
  async function holdOnce(firstAnswer: () => void): Promise<void> {
    await database.db.connection().execute(async (conn) => {
      const { rows } = await sql<{ got: boolean }>`SELECT pg_try_advisory_lock(hashtextextended(${lockName}, 0)) AS got`.execute(conn);
      if (!rows[0]?.got) {
        firstAnswer();
        return;
      }
      leading = true;
      firstAnswer();
      options.logger?.info({ lock: lockName }, 'this replica leads: it runs the one-at-a-time work');
      try {
        while (!stopping.signal.aborted) {
          await sleep(checkMs, stopping.signal);
          // A lost connection throws here: the lock went with it, and another replica may have it now.
          await sql`SELECT 1`.execute(conn);
        }
      } finally {
        leading = false;
        if (stopping.signal.aborted) await sql`SELECT pg_advisory_unlock(hashtextextended(${lockName}, 0))`.execute(conn).catch(() => undefined);
      }
    });
  }

  return {
    get leading() {
      return leading;
    },
    start() {
      return new Promise<void>((firstTry) => {
        loop = (async () => {
          while (!stopping.signal.aborted) {
            try {
              await holdOnce(firstTry);
            } catch (err) {
              firstTry();
              options.logger?.warn({ err, lock: lockName }, 'leadership lost or not taken: trying again');
            }
            await sleep(retryMs, stopping.signal);
          }
        })();
      });
    },
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}

/** A round of one-at-a-time work: run by the leader, nothing (0) elsewhere. */
export function whileLeading(lead: Pick<Leadership, 'leading'>, round: () => Promise<number>): () => Promise<number> {
  return async () => (lead.leading ? round() : 0);
}
