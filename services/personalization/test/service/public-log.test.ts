// The public log of Personas and their copy numbers (issue 27), on PGlite and PostgreSQL: numbers
// dense per book under concurrent sales; every copy logged in its book's number order, with a
// commitment its holder can check against the record the verify route shows, an inclusion proof
// anyone can check against the signed checkpoint, and the copy's number printed in its PDF; a number
// whose copy failed revoked, so no gap; a refund logged after the copy; writers racing each other
// (two connections on PostgreSQL) never forking the log; a changed file named by the audit.
import { execFile, execFileSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createEvent } from '@persona/bus';
import { commitmentText, formatPersonaId, LogRules, parseLogEntry, type LogEntry } from '@persona/contracts';
import { openDatabase, type Database } from '@persona/db';
import { LocalFileStore } from '@persona/file-store';
import { describeWithPostgres, TEST_DATABASE_URL } from '@persona/test-kit';
import {
  auditLog,
  entriesPath,
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  rfc6962,
  TiledTree,
  tilePath,
  verifyConsistency,
  verifyInclusion,
  type LogReader,
} from '@persona/transparency-log';
import { nodeSha256 } from '@persona/transparency-log/node';
import { verify as verifySignature, createPublicKey } from 'node:crypto';
import type { PersonalizationDB } from '../../src/db';
import { inlineBuildPool } from '../../src/modules/build-pool/build-pool';
import { endLicences } from '../../src/modules/personas/licences';
import * as repo from '../../src/modules/personas/personas.repository';
import { loadSigningKey } from '../../src/modules/personas/signing-keys';
import { claimCopyNumber } from '../../src/modules/personas/copy-numbers';
import { NOT_MADE, openPublicLog, type PublicLog } from '../../src/modules/public-log/log-writer';
import { preflight } from '../../src/modules/print-files/preflight';
import { printFileUrl } from '@persona/service-kit';
import { INTERNAL_TOKEN, paidOrder, readOneChapter, serviceHarness, type StackKind } from '../support/service-on';

const hasher = rfc6962(nodeSha256);
const silent = { info() {}, warn() {}, error() {}, debug() {} } as never;
const newPersonaId = () => formatPersonaId(randomBytes(10));
const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  for (const end = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 50))) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}

/** The details of a Persona as the service records them (what the log needs of them). */
const detailsOf = (personaId: string, bookId: string) => ({
  persona_id: personaId,
  order_id: randomUUID(),
  book_id: bookId,
  title: 'A Book',
  author: 'An Author',
  buyer_name: 'Asha Rao',
  purchase_date: '2026-12-07',
});

/** A Persona of `bookId` recorded ready. */
const saveReady = (db: Database<PersonalizationDB>['db'], personaId: string, bookId: string) =>
  repo.saveReady(db, {
    ...detailsOf(personaId, bookId),
    recipient_name: null,
    message: null,
    signature: 'c2ln',
    key_id: 'k',
    sha256: 'h',
    epub_sha256: null,
    mark: randomBytes(5).readUIntBE(0, 5),
    pages: 1,
    record_version: 2,
    buyer_name_salt: null,
    message_salt: null,
  });

/** A Persona numbered, then recorded ready (or failed for good). */
async function madeCopy(db: Database<PersonalizationDB>['db'], bookId: string, status: 'ready' | 'failed' = 'ready'): Promise<string> {
  const personaId = newPersonaId();
  await claimCopyNumber(db, { personaId, bookId });
  if (status === 'failed') await repo.saveFailed(db, { ...detailsOf(personaId, bookId), error: 'the source cannot be read' });
  else await saveReady(db, personaId, bookId);
  return personaId;
}

function contract(kind: StackKind) {
  const h = serviceHarness(kind, { readSource: readOneChapter, buildPool: inlineBuildPool(), lookupsPerMinute: 10_000, logRoundMs: 100 });

  const inject = (url: string) => h.service.app.inject({ url });
  /** Digital Personas made by the suite's tests so far. */
  const verifiedIds: string[] = [];
  const verify = async (personaId: string) => (await inject(`/api/personas/${personaId}/verify`)).json().data;
  /** The log as any reader has it: through its routes. */
  const reader: LogReader = {
    checkpoint: async () => (await inject('/api/log/checkpoint')).body,
    tile: async (level, index, width) => {
      const res = await inject(`/api/log/${tilePath(level, index, width)}`);
      if (res.statusCode !== 200) throw new Error(`${tilePath(level, index, width)}: ${res.statusCode}`);
      return new Uint8Array(res.rawPayload);
    },
    bundle: async (index, width) => {
      const res = await inject(`/api/log/${entriesPath(index, width)}`);
      if (res.statusCode !== 200) throw new Error(`${entriesPath(index, width)}: ${res.statusCode}`);
      return new Uint8Array(res.rawPayload);
    },
  };
  async function logKey() {
    const { log } = (await inject('/api/personas/public-key')).json().data;
    return { origin: log.origin as string, verifier: await parseVerifierKey(nodeSha256, log.verifierKey) };
  }
  const ed25519 = async (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) =>
    verifySignature(
      null,
      message,
      createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]), format: 'der', type: 'spki' }),
      signature,
    );
  async function signedCheckpoint() {
    const { origin, verifier } = await logKey();
    const { text } = await openNote(await reader.checkpoint(), [verifier], ed25519);
    return parseCheckpoint(text, origin);
  }
  async function audit() {
    const { origin, verifier } = await logKey();
    const report = await auditLog({ hasher, reader, origin, verifiers: [verifier], verify: ed25519 });
    // Beyond the hashes: each book's numbers in order, every re-issue and refund naming an earlier copy.
    const rules = new LogRules();
    // The entries the checkpoint read holds (the writer may have recorded more since).
    const rows = await h.database.db.selectFrom('log_entries').select(['idx', 'entry']).where('idx', '<', report.size).orderBy('idx').execute();
    for (const row of rows) rules.add(row.idx, row.entry);
    return { ...report, problems: [...report.problems, ...rules.problems], rows };
  }

  it("numbers a book's copies 1, 2, 3… under concurrent sales, once per Persona however often it is claimed", async () => {
    const bookId = randomUUID();
    const ids = Array.from({ length: 30 }, newPersonaId);
    // Every Persona claimed twice at once (a redelivered request), all of them together.
    const numbers = await Promise.all([...ids, ...ids].map((personaId) => claimCopyNumber(h.database.db, { personaId, bookId })));
    expect(numbers.slice(0, 30)).toEqual(numbers.slice(30));
    expect([...numbers.slice(0, 30)].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    // A re-issue keeps the number of the copy it replaces; another book starts at 1.
    expect(await claimCopyNumber(h.database.db, { personaId: newPersonaId(), bookId, replaces: ids[4] })).toBe(numbers[4]);
    expect(await claimCopyNumber(h.database.db, { personaId: newPersonaId(), bookId: randomUUID() })).toBe(1);
    expect(await claimCopyNumber(h.database.db, { personaId: newPersonaId(), bookId })).toBe(31);
  });

  it('logs each copy made with its number, printed in it, a commitment its holder can check and a proof anyone can; a refund after it', async () => {
    const bookId = randomUUID();
    const ids = [newPersonaId(), newPersonaId(), newPersonaId()];
    for (const [i, personaId] of ids.entries()) {
      await h.bus.publish(createEvent('order.paid', paidOrder(randomUUID(), personaId, { bookId }), { correlationId: `c-log-${i}` }));
    }
    verifiedIds.push(...ids);
    const verified = await Promise.all(ids.map((id) => until(`${id} in the log`, async () => ((v) => v?.log && v)(await verify(id)))));
    expect(verified.map((v) => v.copy).sort()).toEqual([1, 2, 3]);
    // The checkpoint is published just after the entries are recorded: one that holds them all.
    const last = Math.max(...verified.map((v) => v.log.index));
    const checkpoint = await until('a checkpoint holding the copies', async () => ((c) => c.size > last && c)(await signedCheckpoint()));
    for (const v of verified) {
      const entry = parseLogEntry(v.log.entry) as Extract<LogEntry, { type: 'persona' }>;
      expect(entry).toEqual({ v: 1, type: 'persona', book: bookId, copy: v.copy, commitment: sha256Hex(commitmentText(v.log.salt, v.record)) });
      // The entry's place is proved against the signed root, from the tiles alone.
      const tree = new TiledTree(hasher, reader, checkpoint.size);
      const proof = await tree.inclusionProof(v.log.index);
      await verifyInclusion(hasher, v.log.index, checkpoint.size, hasher.leaf(new TextEncoder().encode(v.log.entry)) as Uint8Array, proof, checkpoint.root);
      // The number the log holds is the one printed on the dedication page and in the colophon.
      const pdf = path.join(os.tmpdir(), `${v.personaId}.pdf`);
      writeFileSync(pdf, (await h.service.app.inject({ url: `/api/personas/${v.personaId}/download` })).rawPayload);
      const text = execFileSync('pdftotext', ['-layout', pdf, '-']).toString().replace(/\s+/g, ' ');
      await rm(pdf);
      expect(text).toContain(`Copy No. ${v.copy} of the Personas of this book`);
      expect(text).toContain(`It is copy No. ${v.copy} of the Personas of this book.`);
    }
    // In the log, the book's copies come in number order.
    const indexes = [...verified].sort((a, b) => a.copy - b.copy).map((v) => v.log.index);
    expect([...indexes].sort((a, b) => a - b)).toEqual(indexes);

    const refunded = verified[1]!;
    const orderId = (await h.database.db.selectFrom('personas').select('order_id').where('persona_id', '=', refunded.personaId).executeTakeFirstOrThrow())
      .order_id;
    await endLicences(
      h.database.db,
      createEvent(
        'order.refunded_in_full',
        { orderId, personaId: refunded.personaId, refundedAt: new Date().toISOString() },
        { correlationId: 'c-log-refund' },
      ),
    );
    const later = await until('the refund in the log', async () => ((v) => v.log.later.length > 0 && v.log.later)(await verify(refunded.personaId)));
    expect(later.map((e: { entry: string }) => parseLogEntry(e.entry))).toEqual([{ v: 1, type: 'refund', of: refunded.log.index }]);

    const report = await audit();
    expect(report.problems).toEqual([]);
    expect(report.entries).toBe(report.rows.length);
    // The log's files: a full tile would be immutable; the checkpoint and partial ones are kept seconds.
    expect((await inject('/api/log/checkpoint')).headers['cache-control']).toBe('public, max-age=2, s-maxage=2');
    expect((await inject('/api/log/tile/0/999')).statusCode).toBe(404);
    expect((await inject('/api/log/../personas')).statusCode).toBe(404);
  }, 90_000);

  it("revokes the number of a copy that could not be made, so the book's later copies are logged, and logs it late if it is made after all", async () => {
    const bookId = randomUUID();
    const first = await madeCopy(h.database.db, bookId, 'failed');
    const second = await madeCopy(h.database.db, bookId);
    const waiting = newPersonaId();
    await claimCopyNumber(h.database.db, { personaId: waiting, bookId });
    const fourth = await madeCopy(h.database.db, bookId);
    const logged = async (personaId: string) =>
      (await h.database.db.selectFrom('log_entries').select(['idx', 'entry', 'kind']).where('persona_id', '=', personaId).orderBy('idx').execute()).map((r) =>
        parseLogEntry(r.entry),
      );
    const secondEntries = await until('the second copy logged', async () => ((e) => e.length > 0 && e)(await logged(second)));
    expect(await logged(first)).toEqual([{ v: 1, type: 'revoked', book: bookId, copy: 1, reason: NOT_MADE }]);
    expect(secondEntries).toMatchObject([{ type: 'persona', copy: 2 }]);
    // Copy 3 is still being made: copy 4 waits for it.
    await new Promise((r) => setTimeout(r, 500));
    expect(await logged(fourth)).toEqual([]);
    await repo.saveFailed(h.database.db, { ...detailsOf(waiting, bookId), title: '', author: '', error: 'the source cannot be read' });
    await until('copy 4 logged', async () => (await logged(fourth)).length > 0);
    expect(await logged(waiting)).toMatchObject([{ type: 'revoked', copy: 3 }]);
    // Copy 1, retried by an administrator and made: logged now, with the number it had.
    await h.database.db.deleteFrom('personas').where('persona_id', '=', first).execute();
    await saveReady(h.database.db, first, bookId);
    await until('copy 1 logged late', async () => (await logged(first)).length === 2);
    expect(await logged(first)).toMatchObject([
      { type: 'revoked', copy: 1 },
      { type: 'persona', copy: 1 },
    ]);
    expect((await audit()).problems).toEqual([]);
  }, 60_000);

  it('never forks under writers racing each other: no gap, each copy once, every checkpoint consistent with the next', async () => {
    // A second writer on a connection of its own (PostgreSQL), as another replica's would be.
    const other: Database<PersonalizationDB> =
      kind === 'postgres' ? openDatabase<PersonalizationDB>({ kind: 'postgres', url: TEST_DATABASE_URL }, h.database.schema) : h.database;
    const key = await loadSigningKey(h.database.db);
    const writers: PublicLog[] = [];
    try {
      for (const db of [h.database.db, other.db]) {
        writers.push(await openPublicLog({ db, store: new LocalFileStore(h.dir), personaKey: key, publicUrl: 'https://shop.example', logger: silent }));
      }
      const books = [randomUUID(), randomUUID(), randomUUID()];
      const made: string[] = [];
      const seen: Array<{ size: number; root: Uint8Array }> = [];
      const rounds = async (writer: PublicLog) => {
        for (let i = 0; i < 15; i += 1) {
          await writer.round();
          seen.push(await signedCheckpoint());
        }
      };
      await Promise.all([
        (async () => {
          for (let i = 0; i < 120; i += 1) made.push(await madeCopy(h.database.db, books[i % 3]!));
        })(),
        rounds(writers[0]!),
        rounds(writers[1]!),
      ]);
      await writers[0]!.round();
      const rows = await h.database.db.selectFrom('log_entries').select(['idx', 'persona_id']).orderBy('idx').execute();
      expect(rows.map((r) => r.idx)).toEqual(rows.map((_, i) => i));
      const logged = rows.map((r) => r.persona_id);
      for (const personaId of made) expect(logged.filter((p) => p === personaId)).toHaveLength(1);
      // Every checkpoint a reader saw is a prefix of every later one.
      const last = await signedCheckpoint();
      expect(last.size).toBe(rows.length);
      const tree = new TiledTree(hasher, reader, last.size);
      for (const cp of seen) {
        expect(cp.size).toBeLessThanOrEqual(last.size);
        if (cp.size > 0 && cp.size < last.size) await verifyConsistency(hasher, cp.size, last.size, await tree.consistencyProof(cp.size), cp.root, last.root);
      }
      expect((await audit()).problems).toEqual([]);
    } finally {
      for (const writer of writers) await writer.close();
      if (other !== h.database) await other.close();
    }
  }, 90_000);

  it("makes a printed copy's print files, fetched with their token, and logs the printed copy made, then shipped", async () => {
    const personaId = newPersonaId();
    const orderId = randomUUID();
    await h.bus.publish(createEvent('order.paid', { ...paidOrder(orderId, personaId), deliveryType: 'physical' }, { correlationId: 'c-print' }));
    const made = await until('the printed copy logged', async () => ((v) => v?.log?.later.length > 0 && v)(await verify(personaId)));
    expect(made.log.later.map((e: { entry: string }) => parseLogEntry(e.entry))).toEqual([{ v: 1, type: 'printed', of: made.log.index }]);
    // In the round that logged the copy itself: nothing waits for the next.
    expect(made.log.later[0].index).toBe(made.log.index + 1);
    const row = await h.database.db.selectFrom('personas').selectAll().where('persona_id', '=', personaId).executeTakeFirstOrThrow();
    expect(JSON.parse(row.print_problems!)).toEqual([]);
    expect(row.print_spine_in).toBeCloseTo(row.print_pages! * 0.002252, 6);
    for (const file of ['interior', 'cover'] as const) {
      const url = new URL(printFileUrl('https://shop.example', INTERNAL_TOKEN, personaId, file));
      const res = await inject(`${url.pathname}${url.search}`);
      expect({ status: res.statusCode, type: res.headers['content-type'], cache: res.headers['cache-control'] }).toEqual({
        status: 200,
        type: 'application/pdf',
        cache: 'private, no-store',
      });
      expect((await preflight(new Uint8Array(res.rawPayload), { kind: file, spineInches: row.print_spine_in! })).problems).toEqual([]);
      // Another file's token, or none, shows nothing.
      const other = printFileUrl('https://shop.example', INTERNAL_TOKEN, personaId, file === 'interior' ? 'cover' : 'interior');
      expect((await inject(`${url.pathname}?token=${new URL(other).searchParams.get('token')}`)).statusCode).toBe(404);
    }
    // A digital copy has no print files.
    const digital = new URL(printFileUrl('https://shop.example', INTERNAL_TOKEN, verifiedIds[0]!, 'interior'));
    expect((await inject(`${digital.pathname}${digital.search}`)).statusCode).toBe(404);

    await h.bus.publish(createEvent('order.delivery_status_changed', { orderId, personaId, from: 'pending', to: 'shipped' }, { correlationId: 'c-print' }));
    const shipped = await until('the shipment logged', async () => ((v) => v.log.later.length === 2 && v)(await verify(personaId)));
    expect(parseLogEntry(shipped.log.later[1].entry)).toEqual({ v: 1, type: 'shipped', of: made.log.index });
    expect((await audit()).problems).toEqual([]);
  }, 90_000);

  /** `npm run log:audit` against the service listening at `address`: its exit code and what it printed. */
  const auditScript = (address: string): Promise<{ code: number; out: string }> =>
    new Promise((resolve) => {
      const script = path.resolve(__dirname, '../../../../scripts/log-audit.mjs');
      execFile(process.execPath, [script, address], (err, stdout) => resolve({ code: err ? Number(err.code) : 0, out: stdout }));
    });

  it('names a changed entry or tile in the audit, and `npm run log:audit` does over HTTP', async () => {
    const personaId = await madeCopy(h.database.db, randomUUID());
    // Once the copy is in the published log, nothing more is added to it in this test.
    await until('the copy in the published log', async () => {
      const logged = await h.database.db.selectFrom('log_entries').select('idx').where('persona_id', '=', personaId).executeTakeFirst();
      return logged !== undefined && (await inject('/api/log/checkpoint')).statusCode === 200 && (await signedCheckpoint()).size > logged.idx;
    });
    const { size } = await signedCheckpoint();
    // Listening for the script, as a shop does (its own server: the rest of the suite injects).
    const address = await h.service.app.listen({ port: 0, host: '127.0.0.1' });
    const whole = await auditScript(address);
    expect(whole.code).toBe(0);
    expect(whole.out).toContain(`${size} entries`);
    expect(whole.out).toContain('the log is whole: every entry, tile and checkpoint holds');
    const bundle = path.join(h.dir, 'log', entriesPath(Math.floor((size - 1) / 256), size % 256 || 256));
    const original = await readFile(bundle);
    const changed = Buffer.from(original);
    // A digit of the last entry's copy number, changed.
    const at = changed.lastIndexOf(Buffer.from('"copy":')) + 7;
    changed[at] = changed[at] === 0x39 ? 0x38 : changed[at]! + 1;
    try {
      await writeFile(bundle, changed);
      const problems = (await audit()).problems;
      expect(problems.some((p) => p.includes(entriesPath(Math.floor((size - 1) / 256), size % 256 || 256)))).toBe(true);
      const audited = await auditScript(address);
      expect(audited.code).toBe(1);
      expect(audited.out).toContain(entriesPath(Math.floor((size - 1) / 256), size % 256 || 256));
    } finally {
      await writeFile(bundle, original);
    }
    expect((await audit()).problems).toEqual([]);
  }, 60_000);
}

describe('the public log on PGlite', () => contract('pglite'));
describeWithPostgres()('the public log on PostgreSQL', () => contract('postgres'));
