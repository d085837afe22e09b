// The public log's one writer (issue 27). In rounds (every few seconds, and as soon as a Persona is
// recorded), under a PostgreSQL advisory lock held by the round's transaction, so replicas take
// turns and the log never forks: it reads the log's size, finds what is not logged yet (copies made,
// in each book's number order; numbers whose copy failed for good, revoked; re-issues; and, from
// the log's queue, refunds and printed copies made and shipped),
// appends their entries (@persona/transparency-log), writes the new tiles and bundles, signs the
// new checkpoint, and records the entries, all before the transaction commits. The checkpoint file
// is written after the commit, under the lock again, from the database: a round that failed after
// writing tiles left files no published checkpoint names (the next round writes them again from
// the same size), and a checkpoint is never written twice or out of order.
import { sql, type Kysely, type Transaction } from 'kysely';
import { commitmentText, formatLogEntry, type LogEntry } from '@persona/contracts';
import type { FileStore } from '@persona/file-store';
import { generateSignerKey, nodeSha256, parseSignerKey, type SigningKey as LogSigningKey } from '@persona/transparency-log/node';
import { appendEntries, entriesPath, formatCheckpoint, formatVerifierKey, rfc6962, signNote, TiledTree, tilePath, withWrites } from '@persona/transparency-log';
import { backgroundRounds, type Logger } from '@persona/service-kit';
import type { PersonalizationDB } from '../../db';
import { canonicalJson, detailSalt, sha256Hex, signedFields, type SigningKey } from '../signing/persona-signature';
import { signedRecord } from '../personas/verify-file';
import type { PersonaRow } from '../personas/personas.repository';
import { LogFiles } from './log-files';

type Db = Kysely<PersonalizationDB>;

/** How often the writer looks for copies to log when nothing wakes it; a copy is logged within about this after it is ready. */
export const LOG_ROUND_MS = 5_000;
/** At most this many entries per round: a backlog (the first rounds after the log began) is appended in turns. */
const ROUND_LIMIT = 2_000;
/** The reason a revoked number gives. */
export const NOT_MADE = 'the copy could not be made';

const hasher = rfc6962(nodeSha256);

export interface PublicLogOptions {
  db: Db;
  store: FileStore;
  /** The Personas' signing key: the salts of the copies' commitments derive from it. */
  personaKey: SigningKey;
  /** The shop's address: the log's origin is its host and /api/log. */
  publicUrl: string;
  /** LOG_SIGNING_KEY: the log's signed-note key ("PRIVATE+KEY+<origin>+…"); else the one kept in the database, else a new one. */
  signingKey?: string;
  logger: Logger;
  roundMs?: number;
}

/** The log's origin: the host (and port) of the shop's address, and the path its files are served under. */
export const logOrigin = (publicUrl: string) => `${new URL(publicUrl).host}/api/log`;

/** A copy, or a refund, the log does not hold yet. */
interface Pending {
  kind: LogEntry['type'];
  personaId: string;
  entry: LogEntry;
  /** The commitment's salt, kept with the copy's claim. */
  salt?: string;
}

type CopyRow = { persona_id: string; book_id: string; copy_no: number; replaces: string | null; revoked_idx: number | null } & Partial<PersonaRow>;

export interface PublicLog {
  readonly origin: string;
  readonly verifierKey: string;
  readonly files: LogFiles;
  /** Appends what is waiting and publishes the checkpoint; answers how many entries it appended. */
  round(): Promise<number>;
  /** Starts the rounds. */
  start(): void;
  /** Asks for a round soon (a Persona was just recorded). */
  nudge(): void;
  /** Stops the rounds, after the one under way. */
  close(): Promise<void>;
}

/** The log's state row, made on the first start: its origin for good, and its key. */
async function logState(db: Db, publicUrl: string, configuredKey: string | undefined, logger: Logger): Promise<{ origin: string; key: LogSigningKey }> {
  let state = await db.selectFrom('log_state').select(['origin', 'signer_key']).where('id', '=', 1).executeTakeFirst();
  if (!state) {
    const origin = logOrigin(publicUrl);
    const signerKey = configuredKey ?? (await generateSignerKey(origin));
    await db
      .insertInto('log_state')
      .values({ id: 1, origin, signer_key: signerKey, size: 0, checkpoint: null, published_size: 0 })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    state = await db.selectFrom('log_state').select(['origin', 'signer_key']).where('id', '=', 1).executeTakeFirstOrThrow();
  } else if (configuredKey && configuredKey !== state.signer_key) {
    await db.updateTable('log_state').set({ signer_key: configuredKey }).where('id', '=', 1).execute();
    state = { ...state, signer_key: configuredKey };
    logger.warn({ origin: state.origin }, 'the public log is signed with the configured LOG_SIGNING_KEY from now on');
  }
  if (state.origin !== logOrigin(publicUrl)) {
    logger.warn(
      { origin: state.origin, publicUrl },
      'the public log keeps the origin it began with, which is not the shop’s address now: its readers name it by that origin',
    );
  }
  const key = parseSignerKey(state.signer_key);
  if (key.signer.name !== state.origin) throw new Error(`the public log's key is named "${key.signer.name}", not the log's origin "${state.origin}"`);
  return { origin: state.origin, key };
}

/** The copies waiting for their entries, with their Personas' rows (none yet: being made). */
async function waitingCopies(trx: Transaction<PersonalizationDB>): Promise<CopyRow[]> {
  return (
    (await trx
      .selectFrom('persona_copies as c')
      .leftJoin('personas as p', 'p.persona_id', 'c.persona_id')
      .select(['c.persona_id', 'c.book_id', 'c.copy_no', 'c.replaces', 'c.revoked_idx'])
      .select([
        'p.status',
        'p.title',
        'p.author',
        'p.buyer_name',
        'p.purchase_date',
        'p.recipient_name',
        'p.message',
        'p.record_version',
        'p.buyer_name_salt',
        'p.message_salt',
      ])
      .where('c.entry_idx', 'is', null)
      // Settled for good: a number already revoked whose copy stays failed, a re-issue that failed.
      .where((eb) => eb.not(eb.and([eb('p.status', '=', 'failed'), eb.or([eb('c.revoked_idx', 'is not', null), eb('c.replaces', 'is not', null)])])))
      .orderBy('c.book_id')
      .orderBy('c.copy_no')
      .orderBy('c.claimed_at')
      .limit(ROUND_LIMIT)
      .execute()) as CopyRow[]
  );
}

/** Opens the log (made on the first start) and its writer; `start()` begins the rounds. */
export async function openPublicLog(options: PublicLogOptions): Promise<PublicLog> {
  const { db, personaKey, logger } = options;
  const files = new LogFiles(options.store);
  const { origin, key } = await logState(db, options.publicUrl, options.signingKey, logger);
  const lockName = `${origin}:writer`;
  const lock = (trx: Transaction<PersonalizationDB>) => sql`SELECT pg_advisory_xact_lock(hashtextextended(${lockName}, 0))`.execute(trx);

  /** A copy's entry: its commitment to the signed record the verify page shows its holder. */
  function copyEntry(row: CopyRow, replaces: number | null): Pending {
    const salt = detailSalt(personaKey.privateKey, row.persona_id, 'log');
    const record = canonicalJson(signedFields(signedRecord(row as PersonaRow)));
    const commitment = sha256Hex(Buffer.from(commitmentText(salt, record), 'utf8'));
    const base = { v: 1 as const, book: row.book_id, copy: row.copy_no, commitment };
    return replaces === null
      ? { kind: 'persona', personaId: row.persona_id, entry: { ...base, type: 'persona' }, salt }
      : { kind: 'reissue', personaId: row.persona_id, entry: { ...base, type: 'reissue', replaces }, salt };
  }

  /** What this round appends, in order; `size` is the log's size before it. */
  async function waiting(trx: Transaction<PersonalizationDB>, size: number): Promise<Pending[]> {
    const rows = await waitingCopies(trx);
    const books = [...new Set(rows.map((r) => r.book_id))];
    const last = new Map<string, number>();
    if (books.length > 0) {
      const logged = await trx
        .selectFrom('persona_copies')
        .select(['book_id', (eb) => eb.fn.max('copy_no').as('last')])
        .where('book_id', 'in', books)
        .where('replaces', 'is', null)
        .where((eb) => eb.or([eb('entry_idx', 'is not', null), eb('revoked_idx', 'is not', null)]))
        .groupBy('book_id')
        .execute();
      for (const row of logged) last.set(row.book_id, Number(row.last));
    }
    const out: Pending[] = [];
    const indexOf = new Map<string, number>();
    const add = (pending: Pending) => {
      // A copy's own entry: what a refund, a printed copy or a re-issue of it names.
      if (pending.kind === 'persona' || pending.kind === 'reissue') indexOf.set(pending.personaId, size + out.length);
      out.push(pending);
    };
    // Each book's originals in number order: a copy waits for the lower numbers of its book.
    const blocked = new Set<string>();
    const reissues: CopyRow[] = [];
    for (const row of rows) {
      if (row.replaces !== null) {
        reissues.push(row);
        continue;
      }
      const next = (last.get(row.book_id) ?? 0) + 1;
      if (row.copy_no < next) {
        // A number revoked when its copy failed, made since by a retry: the copy is logged, late.
        if (row.status === 'ready') add(copyEntry(row, null));
        continue;
      }
      if (blocked.has(row.book_id) || row.copy_no !== next) {
        blocked.add(row.book_id);
        continue;
      }
      if (row.status === 'ready') add(copyEntry(row, null));
      else if (row.status === 'failed')
        add({ kind: 'revoked', personaId: row.persona_id, entry: { v: 1, type: 'revoked', book: row.book_id, copy: row.copy_no, reason: NOT_MADE } });
      else {
        // Still being made: the book's later copies wait for it.
        blocked.add(row.book_id);
        continue;
      }
      last.set(row.book_id, next);
    }
    // A re-issue once the copy it replaces is in the log.
    const replaced = reissues.filter((r) => r.status === 'ready').map((r) => r.replaces as string);
    if (replaced.length > 0) {
      const rowsReplaced = await trx.selectFrom('persona_copies').select(['persona_id', 'entry_idx']).where('persona_id', 'in', replaced).execute();
      for (const r of rowsReplaced) if (r.entry_idx !== null) indexOf.set(r.persona_id, r.entry_idx);
    }
    for (const row of reissues) {
      const of = indexOf.get(row.replaces as string);
      if (row.status === 'ready' && of !== undefined) add(copyEntry(row, of));
    }
    // What happened to copies the log holds (a refund, a printed copy made, then shipped), as queued.
    const queued = await trx
      .selectFrom('log_queue as q')
      .innerJoin('persona_copies as c', 'c.persona_id', 'q.persona_id')
      .select(['q.persona_id', 'q.kind', 'c.entry_idx'])
      .orderBy('q.queued_at')
      .orderBy('q.persona_id')
      .limit(ROUND_LIMIT)
      .execute();
    const shipping = queued.filter((q) => q.kind === 'shipped').map((q) => q.persona_id);
    const printed = new Set(
      shipping.length === 0
        ? []
        : (await trx.selectFrom('log_entries').select('persona_id').where('kind', '=', 'printed').where('persona_id', 'in', shipping).execute()).map(
            (r) => r.persona_id,
          ),
    );
    for (const q of queued) {
      const kind = q.kind as 'refund' | 'printed' | 'shipped';
      // The copy's own entry, in the log or in this round (a copy made and printed together); else it waits for it.
      const of = q.entry_idx ?? indexOf.get(q.persona_id);
      if (of === undefined) continue;
      // A shipment once its printed copy is in the log.
      if (kind === 'shipped' && !printed.has(q.persona_id)) continue;
      if (kind === 'printed') printed.add(q.persona_id);
      add({ kind, personaId: q.persona_id, entry: { v: 1, type: kind, of } });
    }
    return out;
  }

  async function append(): Promise<number> {
    return db.transaction().execute(async (trx) => {
      await lock(trx);
      const state = await trx.selectFrom('log_state').select(['size', 'checkpoint']).where('id', '=', 1).executeTakeFirstOrThrow();
      const pending = await waiting(trx, state.size);
      if (pending.length === 0 && state.checkpoint !== null) return 0;
      const encoder = new TextEncoder();
      const texts = pending.map((p) => formatLogEntry(p.entry));
      const appended = await appendEntries(
        hasher,
        state.size,
        files,
        files,
        texts.map((t) => encoder.encode(t)),
      );
      // The files first (no checkpoint names them yet), lowest level first.
      for (const t of appended.tiles) await files.write(tilePath(t.level, t.index, t.width), t.bytes);
      for (const b of appended.bundles) await files.write(entriesPath(b.index, b.width), b.bytes);
      const tree = new TiledTree(hasher, withWrites(files, appended.tiles), appended.size);
      const root = appended.size === 0 ? await hasher.emptyRoot() : await tree.range(0, appended.size);
      const checkpoint = await signNote(formatCheckpoint({ origin, size: appended.size, root, extensions: [] }), [key.signer]);
      if (pending.length > 0) {
        await trx
          .insertInto('log_entries')
          .values(pending.map((p, i) => ({ idx: state.size + i, kind: p.kind, persona_id: p.personaId, entry: texts[i]! })))
          .execute();
      }
      for (const [i, p] of pending.entries()) {
        const idx = state.size + i;
        if (p.kind === 'persona' || p.kind === 'reissue')
          await trx
            .updateTable('persona_copies')
            .set({ entry_idx: idx, log_salt: p.salt ?? null })
            .where('persona_id', '=', p.personaId)
            .execute();
        else if (p.kind === 'revoked') await trx.updateTable('persona_copies').set({ revoked_idx: idx }).where('persona_id', '=', p.personaId).execute();
        else await trx.deleteFrom('log_queue').where('persona_id', '=', p.personaId).where('kind', '=', p.kind).execute();
      }
      await trx.updateTable('log_state').set({ size: appended.size, checkpoint }).where('id', '=', 1).execute();
      return pending.length;
    });
  }

  /** Writes the database's checkpoint when the published one is older: under the lock, so never out of order. */
  async function publish(): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await lock(trx);
      const state = await trx.selectFrom('log_state').select(['size', 'checkpoint', 'published_size']).where('id', '=', 1).executeTakeFirstOrThrow();
      if (state.checkpoint === null) return;
      if (state.published_size === state.size && (await options.store.size('log/checkpoint')) !== null) return;
      await files.write('checkpoint', new TextEncoder().encode(state.checkpoint));
      await trx.updateTable('log_state').set({ published_size: state.size }).where('id', '=', 1).execute();
    });
  }

  async function round(): Promise<number> {
    let total = 0;
    // A full round may leave more waiting (a backlog): go on while it appends a whole round's worth.
    for (;;) {
      const n = await append();
      await publish();
      total += n;
      if (n < ROUND_LIMIT) return total;
    }
  }

  // One round at a time in this process, every roundMs and at once when nudged (a Persona recorded).
  const rounds = backgroundRounds(
    async () => {
      const n = await round();
      if (n > 0) logger.info({ entries: n }, 'public log: entries appended');
      return n;
    },
    { pollMs: options.roundMs ?? LOG_ROUND_MS, logger, what: 'public log round' },
  );

  return {
    origin,
    verifierKey: formatVerifierKey(key.verifier),
    files,
    round,
    start: () => rounds.start(),
    nudge: () => rounds.nudge(),
    close: () => rounds.stop(),
  };
}
