import { randomUUID } from 'node:crypto';
import { createEvent } from '@persona/bus';
import { sql } from '@persona/db';
import { SourceUnavailableError, type SourceReader } from '../../src/modules/personas/book-source-client';
import { inlineBuildPool } from '../../src/modules/build-pool/build-pool';
import { PERSONALIZATION_QUEUE, verifyUrl } from '../../src/modules/personas/personalize';
import { buildPersonaPdf } from '../../src/modules/pdf-engine/build-persona-pdf';
import { saltedHash, signingKeyFromPem, signPersona, verifyPersonaSignature } from '../../src/modules/signing/persona-signature';
import { extractPageTexts } from '../modules/pdf-engine/extract-text';
import { createCanvas } from '@napi-rs/canvas';
import type { PersonaSignedRecordV2 } from '@persona/contracts';
import { BudgetMeter, DOCUMENT_BUDGET, readZip } from '@persona/untrusted';
import { BOOK_ID, paidOrder, serviceHarness } from '../support/service-on';
import { copyNumberOf } from '../../src/modules/personas/copy-numbers';
import { describeOnOneDatabase, mintAdminToken } from '@persona/test-kit';

const BROKEN_BOOK = '7f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c';
const paragraphs = [
  '# Chapter One',
  ...Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1} of a quiet story about light and distance on the Malabar coast.`),
];

const FLAKY_BOOK = '8f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c';
const PDF_BOOK = '9f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c';
let publisherPdf: Uint8Array | null = null;
async function onePagePdf(): Promise<Uint8Array> {
  const { PDFDocument } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.addPage([420, 595]);
  return doc.save();
}
/** A book with a cover and its author's own signature (issue 24): what the catalogue's internal routes serve. */
const PICTURED_BOOK = 'af1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c';
function picture(width: number, height: number, format: 'image/png' | 'image/jpeg'): Uint8Array {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#345';
  if (format === 'image/jpeg') context.fillRect(0, 0, width, height);
  context.fillStyle = '#111';
  context.fillRect(width * 0.2, height * 0.4, width * 0.6, height * 0.1);
  return new Uint8Array(canvas.toBuffer(format as 'image/png'));
}
let flakyDown = true;
const readSource: SourceReader = async (bookId) => {
  if (bookId === BROKEN_BOOK) throw new SourceUnavailableError('the catalogue has no /internal/books/x/source', true);
  if (bookId === FLAKY_BOOK && flakyDown) throw new SourceUnavailableError('the catalogue answered 503', false);
  if (bookId === PICTURED_BOOK)
    return {
      title: 'The Pictured One',
      author: 'Meera Iyer',
      language: 'English',
      source: { kind: 'text', paragraphs },
      cover: picture(400, 600, 'image/jpeg'),
      authorSignature: picture(300, 100, 'image/png'),
    };
  if (bookId === PDF_BOOK)
    return { title: 'The Printed One', author: 'Meera Iyer', language: 'English', source: { kind: 'pdf', bytes: (publisherPdf ??= await onePagePdf()) } };
  return { title: 'The Lighthouse Keeper', author: 'Meera Iyer', language: 'English', source: { kind: 'text', paragraphs } };
};

describeOnOneDatabase('the personalisation service', (kind) => {
  const h = serviceHarness(kind, { readSource, buildPool: inlineBuildPool(), maxAttempts: 2, lookupsPerMinute: 1000 });

  const paid = (personaId: string, bookId = BOOK_ID, buyerName = 'Zoë Ünal') =>
    createEvent('order.paid', paidOrder(randomUUID(), personaId, { bookId, buyerName }), { correlationId: `corr-${personaId}` });

  async function waitFor<T>(check: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const outbox = async () =>
    (
      await sql<{ type: string; envelope: { payload: { personaId: string; reason?: string } } }>`SELECT type, envelope FROM outbox ORDER BY id`.execute(
        h.database.db,
      )
    ).rows;
  const ready = (personaId: string) =>
    waitFor(
      async () =>
        (await h.database.db.selectFrom('personas').selectAll().where('persona_id', '=', personaId).where('status', '=', 'ready').executeTakeFirst()) ??
        undefined,
    );

  describe("a book printed from the publisher's PDF", () => {
    it('is a PDF only: announced so, and an EPUB asked for is refused with the reason', async () => {
      const personaId = 'PRS-PDF1-9QXD-2HFA-J8TW';
      await h.bus.publish(paid(personaId, PDF_BOOK));
      const row = await ready(personaId);
      expect(row.epub_sha256).toBeNull();
      const readyEvent = await waitFor(async () => (await outbox()).find((e) => e.type === 'persona.ready' && e.envelope.payload.personaId === personaId));
      expect((readyEvent.envelope.payload as { formats?: string[] }).formats).toEqual(['pdf']);
      const epub = await h.service.app.inject({ url: `/api/personas/${personaId}/download?format=epub` });
      expect({ status: epub.statusCode, message: epub.json().message }).toEqual({
        status: 404,
        message: "This Persona is a PDF only: its book is printed from the publisher's own PDF",
      });
      expect((await h.service.app.inject({ url: `/api/personas/${personaId}/download` })).statusCode).toBe(200);
    }, 60_000);
  });

  async function uploadCopy(bytes: Buffer) {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'persona.pdf');
    const response = new Response(form);
    return h.service.app.inject({
      method: 'POST',
      url: '/api/personas/verify',
      payload: Buffer.from(await response.arrayBuffer()),
      headers: { 'content-type': response.headers.get('content-type')! },
    });
  }

  it("prints the book's cover as page 1 and the author's own signature on the dedication page; the EPUB's cover image is the cover", async () => {
    const personaId = 'PRS-C0VR-9QXD-2HFA-J8TW';
    await h.bus.publish(paid(personaId, PICTURED_BOOK));
    await ready(personaId);
    const pdf = (await h.service.app.inject({ url: `/api/personas/${personaId}/download` })).rawPayload;
    const pages = await extractPageTexts(pdf);
    expect(pages[1]).toContain('The Pictured One');
    expect(pages[2]).toContain('Personalised for Zoë Ünal');
    expect(pages[2]).not.toContain('Signed by Persona Books');
    const { PDFDocument, PDFDict, PDFName } = await import('pdf-lib');
    const doc = await PDFDocument.load(pdf);
    const images = (index: number) => doc.getPage(index).node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict)?.entries().length ?? 0;
    expect(images(0)).toBe(1);
    expect(images(2)).toBe(1);
    const epub = (await h.service.app.inject({ url: `/api/personas/${personaId}/download?format=epub` })).rawPayload;
    const opf = readZip(epub, new BudgetMeter(DOCUMENT_BUDGET, 'The EPUB'))
      .find((entry) => entry.name === 'OEBPS/content.opf')!
      .data.toString('utf8');
    expect(opf).toContain('<item id="cover-image" href="cover.jpg" media-type="image/jpeg" properties="cover-image"/>');
    expect(opf).toContain('<item id="author-signature" href="signature.png" media-type="image/png"/>');
  }, 60_000);

  describe('a gift', () => {
    it('is made for its recipient, with the message; the verify route tells anyone only the printed name, never the buyer or the message', async () => {
      const personaId = 'PRS-GFT1-9QXD-2HFA-J8TW';
      const event = paid(personaId);
      event.payload.gift = { recipientName: 'अनन्या', message: 'जन्मदिन मुबारक!\nWith love' };
      await h.bus.publish(event);
      const row = await ready(personaId);
      expect(row).toMatchObject({ buyer_name: 'Zoë Ünal', recipient_name: 'अनन्या', message: 'जन्मदिन मुबारक!\nWith love', record_version: 2 });
      expect(row.buyer_name_salt).toMatch(/^[0-9a-f]{32}$/);
      expect(row.message_salt).toMatch(/^[0-9a-f]{32}$/);
      const res = await h.service.app.inject({ url: `/api/personas/${personaId}/verify` });
      const verified = res.json().data;
      expect(Object.keys(verified).sort()).toEqual(
        ['author', 'copy', 'gift', 'keyId', 'licence', 'log', 'name', 'personaId', 'purchaseDate', 'record', 'sha256', 'signature', 'title', 'valid'].sort(),
      );
      expect(verified).toMatchObject({ valid: true, name: 'अनन्या', gift: true, title: 'The Lighthouse Keeper', purchaseDate: '2026-11-22' });
      // Neither the buyer's name nor any of the message, nor a salt, is in the answer.
      for (const secret of ['Zoë', 'Ünal', 'मुबारक', 'With love', row.buyer_name_salt!, row.message_salt!]) expect(res.body.includes(secret)).toBe(false);
      // The record answered is what was signed: anyone can check it with the public key.
      const key = (await h.service.app.inject({ url: '/api/personas/public-key' })).json().data.publicKeyPem;
      const record = JSON.parse(verified.record as string) as PersonaSignedRecordV2;
      expect(record).toMatchObject({ v: 2, personaId, name: 'अनन्या' });
      expect(verifyPersonaSignature(record, verified.signature, key)).toBe(true);
      expect(verifyPersonaSignature({ ...record, name: 'Someone else' }, verified.signature, key)).toBe(false);
      // The file's holder checks the giver and the message with the salts printed in the colophon.
      expect(record.buyerNameHash).toBe(saltedHash(row.buyer_name_salt!, 'Zoë Ünal'));
      expect(record.messageHash).toBe(saltedHash(row.message_salt!, 'जन्मदिन मुबारक!\nWith love'));
      const pdf = (await h.service.app.inject({ url: `/api/personas/${personaId}/download` })).rawPayload;
      const colophon = (await extractPageTexts(pdf)).at(-1)!.replace(/\s+/g, '');
      expect(colophon).toContain(`salt${row.buyer_name_salt}`);
      expect(colophon).toContain(`salt${row.message_salt}`);
      expect(colophon).toContain((verified.record as string).replace(/\s+/g, ''));
      // And the file check still says it is genuine.
      expect((await uploadCopy(pdf)).json().data).toMatchObject({ genuine: true, personaId });
    }, 60_000);

    it('still verifies a gift signed before issue 24 (record version 1), answering its printed name but neither its record nor its buyer or message', async () => {
      const personaId = 'PRS-GFT0-9QXD-2HFA-J8TW';
      const signer = await h.database.db.selectFrom('signing_keys').select('private_pem').where('active', '=', true).executeTakeFirstOrThrow();
      const key = signingKeyFromPem(signer.private_pem);
      const old = {
        personaId,
        bookId: BOOK_ID,
        title: 'An Old Gift',
        author: 'Meera Iyer',
        buyerName: 'Old Giver',
        purchaseDate: '2026-01-05',
        recipientName: 'Old Friend',
        message: 'An old secret',
      };
      await h.database.db
        .insertInto('personas')
        .values({
          persona_id: personaId,
          order_id: '5a1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c',
          book_id: BOOK_ID,
          title: old.title,
          author: old.author,
          buyer_name: old.buyerName,
          purchase_date: old.purchaseDate,
          recipient_name: old.recipientName,
          message: old.message,
          status: 'ready',
          signature: signPersona(old, key),
          key_id: key.keyId,
          sha256: 'e'.repeat(64),
          pages: 3,
        })
        .execute();
      const res = await h.service.app.inject({ url: `/api/personas/${personaId}/verify` });
      expect(res.json().data).toMatchObject({ valid: true, name: 'Old Friend', gift: true, record: null, title: 'An Old Gift' });
      for (const secret of ['Old Giver', 'An old secret']) expect(res.body.includes(secret)).toBe(false);
      // A changed stored record no longer verifies.
      await h.database.db.updateTable('personas').set({ message: 'Another secret' }).where('persona_id', '=', personaId).execute();
      expect((await h.service.app.inject({ url: `/api/personas/${personaId}/verify` })).json().data.valid).toBe(false);
    });
  });

  describe('a paid order', () => {
    const personaId = 'PRS-7K3M-9QXD-2HFA-J8TW';
    let pdf: Buffer;

    beforeAll(async () => {
      const event = paid(personaId);
      // Delivered twice: one Persona, one persona.ready.
      await h.bus.publish(event);
      await h.bus.publish(event);
      await ready(personaId);
      await new Promise((r) => setTimeout(r, 300));
      const res = await h.service.app.inject({ url: `/api/personas/${personaId.toLowerCase()}/download` });
      expect(res.statusCode).toBe(200);
      pdf = res.rawPayload;
    }, 60_000);

    it('becomes exactly one signed, ready Persona announced once', async () => {
      const rows = await h.database.db.selectFrom('personas').selectAll().where('persona_id', '=', personaId).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'ready', title: 'The Lighthouse Keeper', buyer_name: 'Zoë Ünal', purchase_date: '2026-11-22' });
      const readyEvents = (await outbox()).filter((e) => e.type === 'persona.ready' && e.envelope.payload.personaId === personaId);
      expect(readyEvents).toHaveLength(1);
    });

    it('is downloaded as an attachment whose bytes match the recorded SHA-256', async () => {
      const res = await h.service.app.inject({ url: `/api/personas/${personaId}/download` });
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="The Lighthouse Keeper - Persona PRS-7K3M-9QXD-2HFA-J8TW.pdf"; filename\*=UTF-8''/,
      );
      const { createHash } = await import('node:crypto');
      const row = await h.database.db.selectFrom('personas').select('sha256').where('persona_id', '=', personaId).executeTakeFirstOrThrow();
      expect(createHash('sha256').update(pdf).digest('hex')).toBe(row.sha256);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    });

    it('is an EPUB too (a book typeset from its text), announced with both formats; a wrong format is refused', async () => {
      const res = await h.service.app.inject({ url: `/api/personas/${personaId}/download?format=epub` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/epub+zip');
      expect(res.headers['content-disposition']).toMatch(/filename="The Lighthouse Keeper - Persona PRS-7K3M-9QXD-2HFA-J8TW.epub"/);
      expect(res.rawPayload.subarray(30, 38).toString('latin1')).toBe('mimetype');
      const { createHash } = await import('node:crypto');
      const row = await h.database.db.selectFrom('personas').select('epub_sha256').where('persona_id', '=', personaId).executeTakeFirstOrThrow();
      expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(row.epub_sha256);
      const ready = (await outbox()).find((e) => e.type === 'persona.ready' && e.envelope.payload.personaId === personaId)!;
      expect((ready.envelope.payload as { formats?: string[] }).formats).toEqual(['pdf', 'epub']);
      expect((await h.service.app.inject({ url: `/api/personas/${personaId}/download?format=pdf` })).rawPayload.equals(pdf)).toBe(true);
      expect((await h.service.app.inject({ url: `/api/personas/${personaId}/download?format=docx` })).statusCode).toBe(400);
    });

    it('regenerates to the same bytes', async () => {
      const row = await h.database.db.selectFrom('personas').selectAll().where('persona_id', '=', personaId).executeTakeFirstOrThrow();
      const again = await buildPersonaPdf({
        record: { personaId, bookId: row.book_id, title: row.title, author: row.author, buyerName: row.buyer_name, purchaseDate: row.purchase_date },
        salts: {},
        signature: row.signature!,
        keyId: row.key_id!,
        verifyUrl: verifyUrl('https://shop.example', personaId),
        source: { kind: 'text', paragraphs },
        // The mark recorded with the Persona: a rebuild carries the same one, and its copy number.
        mark: Number(row.mark),
        copyNo: (await copyNumberOf(h.database.db, personaId)) ?? undefined,
      });
      expect(Buffer.from(again.bytes).equals(pdf)).toBe(true);
    });

    it('verifies its record with the published public key', async () => {
      const key = (await h.service.app.inject({ url: '/api/personas/public-key' })).json().data;
      expect(key).toMatchObject({ algorithm: 'Ed25519', keyId: expect.any(String) });
      const res = await h.service.app.inject({ url: `/api/personas/${personaId}/verify` });
      const data = res.json().data;
      expect(data).toMatchObject({
        personaId,
        valid: true,
        title: 'The Lighthouse Keeper',
        name: 'Zoë Ünal',
        gift: false,
        purchaseDate: '2026-11-22',
        keyId: key.keyId,
      });
      // The record answered is the one signed (version 2: no hashes for a Persona bought for oneself).
      const record = JSON.parse(data.record) as PersonaSignedRecordV2;
      expect(record).toEqual({ v: 2, personaId, bookId: BOOK_ID, title: data.title, author: data.author, name: 'Zoë Ünal', purchaseDate: data.purchaseDate });
      expect(verifyPersonaSignature(record, data.signature, key.publicKeyPem)).toBe(true);
      expect(verifyPersonaSignature({ ...record, name: 'Someone Else' }, data.signature, key.publicKeyPem)).toBe(false);
    });

    const upload = uploadCopy;

    it('says an uploaded copy is genuine, and a one-byte-changed copy is not', async () => {
      const genuine = await upload(pdf);
      expect(genuine.json().data).toMatchObject({ genuine: true, personaId });
      const changed = Buffer.from(pdf);
      const at = Math.floor(changed.length / 2);
      changed[at] ^= 0x01;
      expect(changed.equals(pdf)).toBe(false);
      const tampered = await upload(changed);
      expect(tampered.json().data).toEqual({
        genuine: false,
        personaId,
        reason: `This file names Persona ${personaId} but differs from it: it has been changed since it was made`,
      });
      const stranger = await upload(Buffer.from('%PDF-1.4\n%%EOF\n'));
      expect(stranger.json().data).toEqual({ genuine: false, personaId: null, reason: 'This file is not a Persona made by Persona Books' });
      const html = await upload(Buffer.from('<html>not a pdf</html>'));
      expect({ status: html.statusCode, message: html.json().message }).toEqual({ status: 415, message: 'The file must be a PDF or an EPUB' });
    });

    it('says the same of its EPUB: genuine as made, changed once a byte differs', async () => {
      const epub = (await h.service.app.inject({ url: `/api/personas/${personaId}/download?format=epub` })).rawPayload;
      expect((await upload(epub)).json().data).toEqual({
        genuine: true,
        personaId,
        reason: 'A genuine, unmodified Persona EPUB of "The Lighthouse Keeper" personalised for Zoë Ünal',
      });
      // A byte of the last file's compressed data changed: the persona id is then only inside the archive.
      const changed = Buffer.from(epub);
      changed[changed.lastIndexOf(Buffer.from('PK\x01\x02')) - 8] ^= 0x01;
      expect((await upload(changed)).json().data).toMatchObject({ genuine: false, personaId });
    });
  });

  describe('a leaked copy uploaded by an administrator', () => {
    const personaId = 'PRS-4K01-9QXD-2HFA-J8TW';
    const admin = { authorization: `Bearer ${mintAdminToken()}` };
    let pdf: Buffer;
    let epub: Buffer;

    beforeAll(async () => {
      const event = paid(personaId, BOOK_ID, 'Kabir Sen');
      event.payload.gift = { recipientName: 'Meera Iyer' };
      await h.bus.publish(event);
      await ready(personaId);
      pdf = (await h.service.app.inject({ url: `/api/personas/${personaId}/download` })).rawPayload;
      epub = (await h.service.app.inject({ url: `/api/personas/${personaId}/download?format=epub` })).rawPayload;
    }, 60_000);

    async function leak(bytes: Buffer, { headers = admin, name = 'found.pdf', field = 'file' } = {}) {
      const form = new FormData();
      form.append(field, new Blob([bytes]), name);
      const response = new Response(form);
      return h.service.app.inject({
        method: 'POST',
        url: '/api/personas/leaks',
        payload: Buffer.from(await response.arrayBuffer()),
        headers: { ...headers, 'content-type': response.headers.get('content-type')! },
      });
    }

    it('names the order, the buyer (not the recipient) and the day it was paid, from the PDF or the EPUB', async () => {
      const row = await h.database.db.selectFrom('personas').selectAll().where('persona_id', '=', personaId).executeTakeFirstOrThrow();
      const match = {
        personaId,
        orderId: row.order_id,
        bookTitle: 'The Lighthouse Keeper',
        buyerName: 'Kabir Sen',
        recipientName: 'Meera Iyer',
        paidAt: '2026-11-22',
      };
      const fromPdf = await leak(pdf);
      expect(fromPdf.statusCode).toBe(200);
      expect(fromPdf.json().data).toMatchObject({ format: 'pdf', mark: expect.stringMatching(/^[0-9a-f]{12}$/), match });
      expect(fromPdf.json().data.evidence).toMatch(
        new RegExp(`^The mark [0-9a-f]{12} was read on each of the 3 pages read \\(of 6\\); it is the mark of Persona ${personaId}\\.$`),
      );
      expect(BigInt(`0x${fromPdf.json().data.mark}`).toString()).toBe(String(row.mark));
      const fromEpub = await leak(epub, { name: 'found.epub' });
      expect(fromEpub.json().data).toMatchObject({ format: 'epub', mark: fromPdf.json().data.mark, match });
    }, 30_000);

    it('says when no order matches: a PDF no Persona carries a mark in', async () => {
      const res = await leak(Buffer.from(await onePagePdf()));
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({
        format: 'pdf',
        mark: null,
        match: null,
        evidence: 'No mark on the 1 page read: this copy was not made by this shop, or its pages were redrawn as pictures (a photo or a scan).',
      });
    });

    it('is for administrators only, and refuses what is not a readable PDF or EPUB, writing nothing', async () => {
      const count = async () => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM personas`.execute(h.database.db)).rows[0]!.n);
      const before = await count();
      expect((await leak(pdf, { headers: {} as typeof admin })).statusCode).toBe(401);
      expect((await leak(pdf, { headers: { authorization: 'Bearer not-a-token' } })).statusCode).toBe(401);
      const text = await leak(Buffer.from('just some words'), { name: 'notes.txt' });
      expect({ status: text.statusCode, message: text.json().message }).toEqual({ status: 415, message: 'The copy must be a PDF or an EPUB' });
      const zipNotEpub = await leak(Buffer.from('PK\x03\x04 this zip holds no book'), { name: 'x.zip' });
      expect(zipNotEpub.statusCode).toBe(415);
      const broken = await leak(Buffer.from('%PDF-1.7\nthis is no PDF at all\n'));
      expect(broken.statusCode).toBe(400);
      expect(broken.json().message).toMatch(/^This PDF cannot be read/);
      const other = await leak(pdf, { field: 'copy' });
      expect({ status: other.statusCode, message: other.json().message }).toEqual({ status: 400, message: 'body field "copy" is not allowed' });
      const json = await h.service.app.inject({ method: 'POST', url: '/api/personas/leaks', headers: admin, payload: { file: 'x' } });
      expect(json.statusCode).toBe(415);
      const huge = await leak(Buffer.concat([pdf, Buffer.alloc(41 * 1024 * 1024)]));
      expect({ status: huge.statusCode, message: huge.json().message }).toEqual({ status: 413, message: 'The copy must be under 40 MB' });
      expect(await count()).toBe(before);
    }, 30_000);
  });

  it('records a Persona whose source cannot be read as failed, announces it, and dead-letters the message', async () => {
    const personaId = 'PRS-0000-1111-2222-3333';
    await h.bus.publish(paid(personaId, BROKEN_BOOK));
    const failed = await waitFor(
      async () =>
        (await h.database.db.selectFrom('personas').selectAll().where('persona_id', '=', personaId).where('status', '=', 'failed').executeTakeFirst()) ??
        undefined,
    );
    expect(failed.error).toMatch(/cannot|no \/internal/);
    const events = (await outbox()).filter((e) => e.type === 'persona.failed' && e.envelope.payload.personaId === personaId);
    expect(events).toHaveLength(1);
    const dead = await waitFor(async () => {
      const letters = await h.bus.deadLetters(PERSONALIZATION_QUEUE);
      return letters.find((l) => (l.event.payload as { personaId: string }).personaId === personaId);
    });
    expect(dead.attempts).toBe(2);
    expect((await h.service.app.inject({ url: `/api/personas/${personaId}/download` })).statusCode).toBe(404);
  }, 60_000);

  it('makes a failed Persona when an administrator asks again', async () => {
    const personaId = 'PRS-4444-5555-6666-7777';
    const first = paid(personaId, FLAKY_BOOK);
    await h.bus.publish(first);
    await waitFor(
      async () =>
        (await h.database.db.selectFrom('personas').select('status').where('persona_id', '=', personaId).where('status', '=', 'failed').executeTakeFirst()) ??
        undefined,
    );
    flakyDown = false;
    await h.bus.publish(createEvent('persona.retry_requested', first.payload, { correlationId: 'retry' }));
    await ready(personaId);
    const events = (await outbox()).filter((e) => e.envelope.payload.personaId === personaId).map((e) => e.type);
    expect(events).toEqual(['persona.failed', 'persona.ready']);
  }, 60_000);

  it('answers bad persona ids with 400 and unknown ones with 404', async () => {
    expect((await h.service.app.inject({ url: '/api/personas/../../etc/passwd/download' })).statusCode).toBe(404);
    expect((await h.service.app.inject({ url: '/api/personas/not-a-persona-id-x/download' })).json().message).toBe('That is not a valid Persona ID');
    expect((await h.service.app.inject({ url: '/api/personas/PRS-9999-9999-9999-9999/verify' })).statusCode).toBe(404);
  });
});
