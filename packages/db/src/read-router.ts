// Readers and writers (issue 25): reads that may go to a streaming read
// replica (DATABASE_READ_URL) go there only when it has replayed every write
// they must see, else to the primary; so a client reads its own writes.
//
// The rule, per read: the LSN it needs is the larger of the one its caller
// names (`atLeast`: a position read on the primary as of a write that caller
// must see) and this process's last write (the primary's WAL insert position
// read after each unit of work committed, `noteWrite`). With neither, any
// replica state is good enough and the read runs on the replica. Otherwise it
// runs in one read-only transaction on the replica whose first statement asks
// the replica's replay position: at or past the LSN, the rest of the read
// runs in that transaction (its snapshots are later, so they hold every commit
// up to that LSN); behind, the transaction is dropped and the check repeated
// every `pollMs` for up to `waitMs`, then the read runs on the primary. A
// replica that cannot be reached, or cancels a read for a conflict with its
// recovery, sends reads to the primary (the unreachable one for `downMs`).
import { sql, type Kysely } from 'kysely';
import { DatabaseUnavailableError, isConnectionError, pgErrorCode } from './errors';

export interface ReadOptions {
  /** An LSN ('16/B374D848') the read must see: the primary's position as of a write the caller must read. */
  atLeast?: string | null;
}

/** Where reads go: the replica when it is caught up, else the primary. */
export interface ReadRouter<DB> {
  /** Whether a read replica is configured (without one every read runs on the primary). */
  readonly hasReplica: boolean;
  /** Runs `read` on the replica when it has replayed what the read must see (see `ReadOptions`), else on the primary. */
  read<T>(read: (db: Kysely<DB>) => Promise<T>, options?: ReadOptions): Promise<T>;
  /**
   * Runs `read` where it sees every commit made before this call, through any process: on the
   * replica once it has replayed the primary's position as of now (one cheap query on the primary
   * first), else on the primary. For lists an administrator reads after changing something anywhere.
   */
  readLatest<T>(read: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  /** The primary's WAL insert position now: every commit visible before this call is at or before it (null without a replica). */
  primaryLsn(): Promise<string | null>;
  /** After a write committed through this process: later reads from it see the write (nothing without a replica). */
  noteWrite(): Promise<void>;
  /** How many reads ran where, since the start. */
  readonly routed: { replica: number; primary: number };
}

export interface ReadRouterOptions {
  /** How long a read waits for a lagging replica before it runs on the primary. */
  waitMs?: number;
  /** How often a lagging replica is asked again. */
  pollMs?: number;
  /** How long an unreachable replica is left alone. */
  downMs?: number;
}

export function parseLsn(lsn: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(lsn);
  if (!match) throw new Error(`not an LSN: "${lsn}"`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

class ReplicaBehind extends Error {}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Errors after which the read is retried on the primary: the replica unreachable, or a read it cancelled for its recovery. */
function replicaTrouble(err: unknown): 'down' | 'conflict' | null {
  if (err instanceof DatabaseUnavailableError || isConnectionError(err)) return 'down';
  // 40001: "canceling statement due to conflict with recovery"; 57P04 (database dropped) and the like end here too.
  const code = pgErrorCode(err);
  return code === '40001' || code === '57P04' ? 'conflict' : null;
}

export function primaryOnly<DB>(db: Kysely<DB>): ReadRouter<DB> {
  const routed = { replica: 0, primary: 0 };
  return {
    hasReplica: false,
    read: (read) => (routed.primary++, read(db)),
    readLatest: (read) => (routed.primary++, read(db)),
    primaryLsn: async () => null,
    noteWrite: async () => undefined,
    routed,
  };
}

export function createReadRouter<DB>(primary: Kysely<DB>, replica: Kysely<DB> | null, options: ReadRouterOptions = {}): ReadRouter<DB> {
  if (!replica) return primaryOnly(primary);
  const waitMs = options.waitMs ?? 200;
  const pollMs = options.pollMs ?? 10;
  const downMs = options.downMs ?? 5000;
  const routed = { replica: 0, primary: 0 };
  let lastWrite = 0n;
  /** Until then every read runs on the primary (a write whose position is unknown, or the replica away). */
  let primaryUntil = 0;

  const onPrimary = <T>(read: (db: Kysely<DB>) => Promise<T>) => (routed.primary++, read(primary));

  const primaryLsn = async () => {
    const { rows } = await sql<{ lsn: string }>`SELECT pg_current_wal_insert_lsn()::text AS lsn`.execute(primary);
    return rows[0]!.lsn;
  };

  /** One try on the replica: the read's result, or ReplicaBehind. */
  const tryReplica = <T>(read: (db: Kysely<DB>) => Promise<T>, need: bigint): Promise<T> => {
    if (need === 0n) return read(replica);
    return replica
      .transaction()
      .setAccessMode('read only')
      .execute(async (trx) => {
        const { rows } = await sql<{ lsn: string | null }>`
          SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_insert_lsn() END)::text AS lsn`.execute(trx);
        const replayed = rows[0]?.lsn;
        if (!replayed || parseLsn(replayed) < need) throw new ReplicaBehind();
        return read(trx);
      });
  };

  const router: ReadRouter<DB> = {
    hasReplica: true,
    routed,
    primaryLsn,
    async readLatest(read) {
      return router.read(read, { atLeast: await primaryLsn() });
    },
    async noteWrite() {
      try {
        const lsn = parseLsn(await primaryLsn());
        if (lsn > lastWrite) lastWrite = lsn;
      } catch {
        // The write committed, but where it is in the WAL is unknown: read from the primary for a while.
        primaryUntil = Math.max(primaryUntil, Date.now() + 60_000);
      }
    },
    async read(read, readOptions = {}) {
      if (Date.now() < primaryUntil) return onPrimary(read);
      const named = readOptions.atLeast ? parseLsn(readOptions.atLeast) : 0n;
      const need = named > lastWrite ? named : lastWrite;
      const deadline = Date.now() + waitMs;
      for (;;) {
        try {
          const result = await tryReplica(read, need);
          routed.replica++;
          return result;
        } catch (err) {
          if (!(err instanceof ReplicaBehind)) {
            const trouble = replicaTrouble(err);
            if (!trouble) throw err;
            if (trouble === 'down') primaryUntil = Date.now() + downMs;
            return onPrimary(read);
          }
        }
        if (Date.now() + pollMs > deadline) return onPrimary(read);
        await sleep(pollMs);
      }
    },
  };
  return router;
}
