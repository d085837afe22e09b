// The `leaks` group: how long an administrator waits to learn which order a leaked copy came
// from, against 1,000,000 Personas (one per order) on PostgreSQL. The personalisation service
// runs as built (its PDF worker threads read the mark), the personas table holds a million
// marked rows and one real Persona among them; the copy uploaded is that Persona with its
// footer-carrying pages redrawn by pdftocairo (as a leaker's tools would leave it) and then its
// EPUB, each through POST /api/personas/leaks (multipart, admin token), timed end to end.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export async function leakLookup({ orders = 1_000_000, runs = 5 } = {}) {
  const { openTestStack } = require('@persona/test-stack');
  const { mintAdminToken, TEST_JWT_SECRET } = require('@persona/test-kit');
  const { sql } = require('@persona/db');
  const { startPersonalizationService } = require('@persona/personalization');
  const { buildPersonaEpub, buildPersonaPdf, generateSigningKey, leakMark, markSecret, signPersona } = require('@persona/personalization/pdf');

  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-leaks-'));
  const stack = await openTestStack('postgres', 'bench_leaks');
  const service = await startPersonalizationService({
    database: stack.database,
    bus: stack.bus,
    logger: stack.logger,
    catalogueUrl: 'http://127.0.0.1:1',
    internalToken: 'x'.repeat(32),
    publicUrl: 'https://shop.example',
    personasDir: dir,
    jwtSecret: TEST_JWT_SECRET,
    pdfWorkers: 1,
    previewWorkers: 1,
  });
  try {
    const db = stack.database.db;
    // A million sold copies, each with its own mark (48 random bits) …
    let started = performance.now();
    await sql`
      INSERT INTO personas (persona_id, order_id, book_id, title, author, buyer_name, purchase_date, status, mark, pages)
      SELECT 'PRS-' || lpad(to_hex(g), 16, '0'), gen_random_uuid(), gen_random_uuid(), 'Bench Book ' || (g % 100000), 'Bench Author',
             'Buyer ' || g, '2026-11-' || lpad(((g % 28) + 1)::text, 2, '0'), 'ready', (random() * 281474976710655)::bigint, 120
      FROM generate_series(1, ${orders}) AS g`.execute(db);
    await sql`ANALYZE personas`.execute(db);
    const seededSeconds = (performance.now() - started) / 1000;

    // … and one real Persona among them.
    const paragraphs = JSON.parse(readFileSync(path.join(root, 'services/catalogue/seed/demo-catalogue.json'), 'utf8')).books[0].content;
    const key = generateSigningKey();
    const record = {
      personaId: 'PRS-7K3M-9QXD-2HFA-J8TW',
      bookId: '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c',
      title: 'The Backwaters Ledger',
      author: 'Bench',
      buyerName: 'Leaky Buyer',
      purchaseDate: '2026-11-22',
    };
    const mark = leakMark(markSecret(key.privateKey), record.personaId);
    const common = { record, signature: signPersona(record, key), keyId: key.keyId, verifyUrl: `https://shop.example/verify/${record.personaId}`, mark };
    const pdf = (await buildPersonaPdf({ ...common, source: { kind: 'text', paragraphs } })).bytes;
    const epub = await buildPersonaEpub({ ...common, privateKey: key.privateKey, paragraphs, language: 'English' });
    await sql`
      INSERT INTO personas (persona_id, order_id, book_id, title, author, buyer_name, purchase_date, status, mark, pages)
      VALUES (${record.personaId}, gen_random_uuid(), ${record.bookId}, ${record.title}, ${record.author}, ${record.buyerName}, ${record.purchaseDate}, 'ready', ${mark}, 1)`.execute(
      db,
    );

    let leaked = pdf;
    let redrawn = false;
    if (existsSync('/usr/bin/pdftocairo')) {
      writeFileSync(path.join(dir, 'in.pdf'), pdf);
      execFileSync('/usr/bin/pdftocairo', ['-pdf', path.join(dir, 'in.pdf'), path.join(dir, 'out.pdf')]);
      leaked = readFileSync(path.join(dir, 'out.pdf'));
      redrawn = true;
    }

    const authorization = `Bearer ${mintAdminToken()}`;
    const upload = async (bytes, name) => {
      const form = new FormData();
      form.append('file', new Blob([bytes]), name);
      const response = new Response(form);
      const payload = Buffer.from(await response.arrayBuffer());
      const t = performance.now();
      const res = await service.app.inject({
        method: 'POST',
        url: '/api/personas/leaks',
        payload,
        headers: { authorization, 'content-type': response.headers.get('content-type') },
      });
      const elapsed = performance.now() - t;
      const found = res.json().data?.match?.personaId;
      if (found !== record.personaId) throw new Error(`the leak lookup did not find the copy: ${res.statusCode} ${res.body}`);
      return elapsed;
    };
    const time = async (bytes, name) => {
      await upload(bytes, name); // a first run loads pdf.js on the worker
      const all = [];
      for (let i = 0; i < runs; i += 1) all.push(await upload(bytes, name));
      return all.sort((a, b) => a - b);
    };
    const pdfTimes = await time(leaked, 'found.pdf');
    const epubTimes = await time(epub, 'found.epub');
    // The database's part alone: the mark looked up among the million.
    started = performance.now();
    for (let i = 0; i < 100; i += 1)
      await db.selectFrom('personas').select('persona_id').where('mark', '=', mark).where('status', '=', 'ready').executeTakeFirst();
    const queryMs = (performance.now() - started) / 100;
    return { orders, seededSeconds, redrawn, pdfTimes, epubTimes, queryMs, bytes: leaked.length };
  } finally {
    await service.close();
    await stack.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
