import { PDFDocument, StandardFonts, degrees } from 'pdf-lib';
import type { PersonaDetails } from '@persona/contracts';
import { buildPersonaPdf, UnreadableSourceError, type PersonaPdfInput } from '../../../src/modules/pdf-engine/build-persona-pdf';
import { createCanvas } from '@napi-rs/canvas';
import { PDFName, PDFDict, type PDFRawStream } from 'pdf-lib';
import { preparedImage } from '../../../src/modules/pdf-engine/images';
import {
  canonicalJson,
  generateSigningKey,
  saltedHash,
  sha256Hex,
  signedRecordOf,
  signPersona,
  verifyPersonaSignature,
} from '../../../src/modules/signing/persona-signature';
import { extractPageTexts } from './extract-text';
import { personaInput, TEST_RECORD } from '../../fixtures/persona-input';

const key = generateSigningKey();
const record = TEST_RECORD;
const FOOTER = 'Personal copy of Zoë Ünal · PRS-7K3M-9QXD-2HFA-J8TW';

function bookParagraphs(): string[] {
  const paragraphs: string[] = ['A short prologue before any chapter, set on the first body page.'];
  for (let chapter = 1; chapter <= 3; chapter += 1) {
    paragraphs.push(`# Chapter ${chapter}: The River`);
    for (let i = 0; i < 14; i += 1) {
      paragraphs.push(
        `Chapter ${chapter}, paragraph ${i}. ${'The evening light lay long across the water, and nobody on the bank said a word. '.repeat(3 + (i % 5))}`,
      );
    }
  }
  paragraphs.push('Epilogue: a pneumonoultramicroscopicsilicovolcanoconiosispneumonoultramicroscopicsilicovolcanoconiosis word wider than any line.');
  return paragraphs;
}

function input(overrides: Partial<PersonaDetails> = {}, source: PersonaPdfInput['source'] = { kind: 'text', paragraphs: bookParagraphs() }): PersonaPdfInput {
  return personaInput(key, source, overrides);
}

function lines(pageText: string): string[] {
  return pageText
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

describe('buildPersonaPdf from the book text', () => {
  let pdf: Awaited<ReturnType<typeof buildPersonaPdf>>;
  let pages: string[];

  beforeAll(async () => {
    pdf = await buildPersonaPdf(input());
    pages = await extractPageTexts(pdf.bytes);
  });

  it('reports the page count of the file it wrote', async () => {
    expect(pdf.pages).toBeGreaterThan(3);
    expect(pages).toHaveLength(pdf.pages);
    expect((await PDFDocument.load(pdf.bytes)).getPageCount()).toBe(pdf.pages);
  });

  it('sets A5 pages', async () => {
    const doc = await PDFDocument.load(pdf.bytes);
    for (const page of doc.getPages()) expect(page.getSize()).toEqual({ width: 420, height: 595 });
  });

  it('opens with a title page, then the dedication page', () => {
    expect(pages[0]).toContain('The Long Afternoon');
    expect(pages[0]).toContain('Mira Kapoor');
    expect(pages[0]).toContain('A Persona edition');
    const dedication = pages[1];
    expect(dedication).toContain('Personalised for Zoë Ünal');
    expect(dedication).toContain('on 22 November 2026');
    expect(dedication).toContain('PRS-7K3M-9QXD-2HFA-J8TW');
  });

  it('signs the dedication page for the author in words, and keeps the cryptography off it', () => {
    const dedication = pages[1];
    const signature = signPersona(signedRecordOf(record, {}), key);
    expect(dedication).toContain('Mira Kapoor');
    expect(dedication).toContain('Signed by Persona Books for the author');
    expect(dedication).not.toContain('Digitally signed');
    expect(dedication.replace(/\s+/g, '')).not.toContain(signature.slice(0, 40));
    expect(dedication).not.toContain(key.keyId);
    expect(dedication).toContain('https://shop.example/verify/PRS-7K3M-9QXD-2HFA-J8TW');
  });

  it('ends with the colophon: the signed record, which its printed signature verifies, and the key id', () => {
    const colophon = pages[pages.length - 1]!;
    expect(colophon).toContain('Colophon');
    const printed = colophon.replace(/\s+/g, '');
    const signed = signedRecordOf(record, {});
    expect(printed).toContain(canonicalJson(signed).replace(/\s+/g, ''));
    const signature = signPersona(signed, key);
    expect(printed).toContain(signature);
    expect(verifyPersonaSignature(signed, signature, key.publicKey)).toBe(true);
    expect(colophon).toContain(key.keyId);
    // Bought for oneself: nothing is private, no salt is printed.
    expect(colophon).not.toContain('salt');
  });

  it('puts the footer on every page', () => {
    pages.forEach((text) => expect(text).toContain(FOOTER));
  });

  it('starts every chapter on a new page, heading first', () => {
    for (const chapter of [1, 2, 3]) {
      const heading = `Chapter ${chapter}: The River`;
      const holding = pages.filter((text) => text.includes(heading));
      expect(holding).toHaveLength(1);
      expect(lines(holding[0])[0]).toBe(heading);
    }
    expect(lines(pages[2])[0]).toMatch(/^A short prologue/);
  });

  it('numbers the body pages', () => {
    for (let index = 2; index < pages.length - 1; index += 1) {
      expect(lines(pages[index])).toContain(String(index + 1));
    }
  });

  it('keeps every word of the text, breaking a word wider than the line', () => {
    const body = pages.slice(2, -1).join('\n');
    expect(body).toContain('Chapter 3, paragraph 13.');
    const joined = body.replace(/\s+/g, '');
    expect(joined).toContain('pneumonoultramicroscopicsilicovolcanoconiosispneumonoultramicroscopicsilicovolcanoconiosis');
  });

  it('writes the metadata, dated at the purchase date', async () => {
    const doc = await PDFDocument.load(pdf.bytes, { updateMetadata: false });
    expect(doc.getTitle()).toBe('The Long Afternoon');
    expect(doc.getAuthor()).toBe('Mira Kapoor');
    expect(doc.getSubject()).toBe('A Persona of The Long Afternoon personalised for Zoë Ünal');
    expect(doc.getKeywords()).toContain('PRS-7K3M-9QXD-2HFA-J8TW');
    expect(doc.getCreator()).toBe('Persona Books');
    expect(doc.getProducer()).toBe('Persona Books');
    expect(doc.getCreationDate()?.toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(doc.getModificationDate()?.toISOString()).toBe('2026-11-22T00:00:00.000Z');
  });

  it('contains no "@" anywhere in its text when the record has none', () => {
    pages.forEach((text) => expect(text).not.toContain('@'));
  });

  it('embeds subset fonts only (no standard font, no machine font)', () => {
    const raw = Buffer.from(pdf.bytes).toString('latin1');
    expect(raw).not.toMatch(/\/BaseFont\s*\/(Helvetica|Times|Courier)/);
  });

  it('is byte-identical when built again from the same input', async () => {
    const again = await buildPersonaPdf(input());
    expect(sha256Hex(again.bytes)).toBe(sha256Hex(pdf.bytes));
  });

  it('differs when the buyer differs', async () => {
    const other = await buildPersonaPdf(input({ buyerName: 'Zoe Unal' }));
    expect(sha256Hex(other.bytes)).not.toBe(sha256Hex(pdf.bytes));
  });

  it('carries a document /ID derived from the record', () => {
    const raw = Buffer.from(pdf.bytes).toString('latin1');
    const expected = sha256Hex(Buffer.from(JSON.stringify({ ...record }, Object.keys(record).sort()), 'utf8')).slice(0, 32);
    expect(raw.toLowerCase()).toContain(`/id [ <${expected}> <${expected}> ]`);
  });
});

describe('buildPersonaPdf for a gift', () => {
  it('prints a message in Devanagari and an Arabic name, shaped, and reads them back', async () => {
    const pdf = await buildPersonaPdf(input({ recipientName: 'مريم الحسن', message: 'जन्मदिन मुबारक हो, प्रिय!\nনতুন বছর — தமிழ் — Zoë' }));
    const dedication = (await extractPageTexts(pdf.bytes))[1]!;
    expect(dedication).toContain('Personalised for مريم الحسن');
    expect(dedication).toContain('जन्मदिन मुबारक हो, प्रिय!');
    expect(dedication).toContain('নতুন বছর — தமிழ் — Zoë');
  });

  it("prints the recipient's name instead of the buyer's, and the message on the dedication page", async () => {
    const gift = { recipientName: 'Ravi Menon', message: 'For the long train to Kochi.\nWith love, always' };
    const pdf = await buildPersonaPdf(input(gift));
    const pages = await extractPageTexts(pdf.bytes);
    const dedication = lines(pages[1]!).join(' ');
    expect(dedication).toContain('Personalised for Ravi Menon');
    expect(dedication).toContain('For the long train to Kochi.');
    expect(dedication).toContain('With love, always');
    pages.forEach((text) => expect(text.replace(/\s+/g, ' ')).toContain('Personal copy of Ravi Menon · PRS-7K3M-9QXD-2HFA-J8TW'));
    // The buyer's name is neither printed nor in the signed record: only its salted hash is.
    expect(pages.join('\n')).not.toContain('Zoë');
    const again = await buildPersonaPdf(input(gift));
    expect(sha256Hex(again.bytes)).toBe(sha256Hex(pdf.bytes));
    const otherMessage = await buildPersonaPdf(input({ ...gift, message: 'Another message' }));
    expect(sha256Hex(otherMessage.bytes)).not.toBe(sha256Hex(pdf.bytes));
  });

  it("prints in its colophon the salts with which the holder checks the giver's name and the message against the signed hashes", async () => {
    const gift = { recipientName: 'अनन्या शर्मा', message: 'जन्मदिन मुबारक हो!\nWith love, Asha' };
    const made = input(gift);
    const pages = await extractPageTexts((await buildPersonaPdf(made)).bytes);
    const colophon = pages[pages.length - 1]!;
    const printed = colophon.replace(/\s+/g, '');
    const salts = made.salts!;
    const signed = signedRecordOf(made.record, salts);
    expect(signed.buyerNameHash).toBe(saltedHash(salts.buyerName!, 'Zoë Ünal'));
    expect(signed.messageHash).toBe(saltedHash(salts.message!, gift.message));
    expect(printed).toContain(`salt${salts.buyerName}`);
    expect(printed).toContain(`salt${salts.message}`);
    expect(printed).toContain(`hash${signed.buyerNameHash}`);
    expect(printed).toContain(`hash${signed.messageHash}`);
    expect(printed).toContain(canonicalJson(signed).replace(/\s+/g, ''));
    expect(verifyPersonaSignature(signed, made.signature, key.publicKey)).toBe(true);
    expect(pages.join('\n')).not.toContain('Zoë');
  });
});

/** A PNG or JPEG drawn for the test: a coloured panel with a dark mark, `width` × `height` pixels. */
function picture(format: 'png' | 'jpeg', width: number, height: number): Uint8Array {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  if (format === 'jpeg') {
    context.fillStyle = '#2a4d69';
    context.fillRect(0, 0, width, height);
  }
  context.strokeStyle = '#111';
  context.lineWidth = Math.max(2, width / 60);
  context.beginPath();
  context.moveTo(width * 0.1, height * 0.7);
  context.bezierCurveTo(width * 0.3, height * 0.1, width * 0.6, height * 0.9, width * 0.9, height * 0.3);
  context.stroke();
  return new Uint8Array(format === 'png' ? canvas.toBuffer('image/png') : canvas.toBuffer('image/jpeg'));
}

/** The image XObjects a page draws, with their pixel sizes. */
function pageImages(doc: PDFDocument, index: number): Array<{ width: number; height: number; masked: boolean }> {
  const resources = doc.getPage(index).node.Resources();
  const xobjects = resources?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  if (!xobjects) return [];
  return xobjects
    .entries()
    .map(([, ref]) => doc.context.lookup(ref) as PDFRawStream)
    .filter((stream) => stream.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'))
    .map((stream) => ({
      width: (stream.dict.get(PDFName.of('Width')) as unknown as { asNumber(): number }).asNumber(),
      height: (stream.dict.get(PDFName.of('Height')) as unknown as { asNumber(): number }).asNumber(),
      masked: stream.dict.has(PDFName.of('SMask')),
    }));
}

describe("buildPersonaPdf with the book's cover and the author's own signature", () => {
  const cover = picture('jpeg', 400, 600);
  const signature = picture('png', 600, 200);

  it("opens with the cover as page 1, scaled into the page, then the title page and the dedication with the author's own signature", async () => {
    const plain = await buildPersonaPdf(input());
    const pdf = await buildPersonaPdf({ ...input(), cover, authorSignature: signature });
    expect(pdf.pages).toBe(plain.pages + 1);
    const pages = await extractPageTexts(pdf.bytes);
    const doc = await PDFDocument.load(pdf.bytes);
    expect(pageImages(doc, 0)).toEqual([{ width: 400, height: 600, masked: false }]);
    expect(doc.getPage(0).getSize()).toEqual({ width: 420, height: 595 });
    // The cover carries the footer like every page, and nothing else of the buyer's.
    expect(pages[0]!.replace(/\s+/g, ' ')).toContain(FOOTER);
    expect(pages[1]).toContain('A Persona edition');
    expect(pages[2]).toContain('Personalised for Zoë Ünal');
    // The author's signature, with its transparency; the shop's words are not there.
    expect(pageImages(doc, 2)).toEqual([{ width: 600, height: 200, masked: true }]);
    expect(pages[2]).toContain('Mira Kapoor');
    expect(pages[2]).not.toContain('Signed by Persona Books');
    expect(pages[pages.length - 1]!.replace(/\s+/g, ' ')).toContain("The signature on its dedication page is the author's own");
  });

  it('prints a PNG cover before the first page of an uploaded PDF too', async () => {
    const pdf = await buildPersonaPdf({ ...input({}, { kind: 'pdf', bytes: await sourcePdf(3) }), cover: picture('png', 300, 450) });
    const pages = await extractPageTexts(pdf.bytes);
    expect(pages).toHaveLength(6);
    expect(pages[1]).toContain('Original Title Page');
    expect(pages[2]).toContain('Personalised for Zoë Ünal');
    expect(pages[5]).toContain('Colophon');
    const doc = await PDFDocument.load(pdf.bytes);
    expect(pageImages(doc, 0)).toHaveLength(1);
    // The cover is the size the first page is shown at.
    expect(doc.getPage(0).getSize()).toEqual({ width: 432, height: 648 });
  });

  it('decodes each image once and keeps it: a further Persona of the book reuses it, and the bytes are reproducible', async () => {
    expect(await preparedImage(cover)).toBe(await preparedImage(cover));
    const a = await buildPersonaPdf({ ...input(), cover, authorSignature: signature });
    const b = await buildPersonaPdf({ ...input(), cover, authorSignature: signature });
    expect(sha256Hex(a.bytes)).toBe(sha256Hex(b.bytes));
  });

  it('refuses a cover that is neither a PNG nor a JPEG as an unreadable source', async () => {
    await expect(buildPersonaPdf({ ...input(), cover: new TextEncoder().encode('GIF89a not an image') })).rejects.toBeInstanceOf(UnreadableSourceError);
  });
});

describe('buildPersonaPdf with scripts beyond Latin', () => {
  it('prints a Devanagari name on the dedication page and in every footer, extractable as text', async () => {
    const name = 'अनन्या';
    const pdf = await buildPersonaPdf(input({ buyerName: `Zoë Ünal और ${name}` }));
    const pages = await extractPageTexts(pdf.bytes);
    expect(pages[1]).toContain('Zoë Ünal');
    // Shaped by harfbuzz (conjuncts, reordered vowel signs), and the code points come back in logical order.
    expect(pages[1]).toContain(name.normalize('NFC'));
    expect([...name].map((c) => c.codePointAt(0))).toEqual([0x905, 0x928, 0x928, 0x94d, 0x92f, 0x93e]);
    pages.forEach((text) => {
      expect(text.replace(/\s+/g, ' ')).toContain(`Personal copy of Zoë Ünal और ${name} · PRS-7K3M-9QXD-2HFA-J8TW`);
    });
  });

  it('typesets body text in Devanagari, Greek and Cyrillic', async () => {
    const paragraphs = ['# अध्याय एक', 'नमस्ते दुनिया, यह एक परीक्षण है।', 'Καλημέρα κόσμε και Привет, мир.'];
    const pdf = await buildPersonaPdf(input({}, { kind: 'text', paragraphs }));
    const body = (await extractPageTexts(pdf.bytes)).slice(2, -1).join('\n');
    expect(body).toContain('अध्याय एक');
    expect(body).toContain('नमस्ते दुनिया, यह एक परीक्षण है।');
    expect(body).toContain('Καλημέρα κόσμε και Привет, мир.');
  });
});

async function sourcePdf(pageCount: number, options: { rotateFourth?: boolean } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Source title with author@example.com');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pageCount; n += 1) {
    const page = doc.addPage([432, 648]);
    page.drawText(n === 1 ? 'Original Title Page' : `Source page ${n} text`, { x: 60, y: 500, size: 14, font });
    if (options.rotateFourth && n === 4) page.setRotation(degrees(90));
  }
  return doc.save();
}

describe('buildPersonaPdf from an uploaded PDF', () => {
  it('inserts the dedication after the source title page and stamps every page', async () => {
    const pdf = await buildPersonaPdf(input({}, { kind: 'pdf', bytes: await sourcePdf(5) }));
    expect(pdf.pages).toBe(7);
    const pages = await extractPageTexts(pdf.bytes);
    expect(pages).toHaveLength(7);
    expect(pages[0]).toContain('Original Title Page');
    expect(pages[1]).toContain('Personalised for Zoë Ünal');
    expect(pages[1]).toContain('PRS-7K3M-9QXD-2HFA-J8TW');
    for (let n = 2; n <= 5; n += 1) expect(pages[n]).toContain(`Source page ${n} text`);
    pages.forEach((text) => expect(text).toContain(FOOTER));
    const doc = await PDFDocument.load(pdf.bytes);
    expect(doc.getPage(1).getSize()).toEqual({ width: 432, height: 648 });
  });

  it("replaces the source's metadata, keeping no trace of its e-mail address", async () => {
    const pdf = await buildPersonaPdf(input({}, { kind: 'pdf', bytes: await sourcePdf(5) }));
    const doc = await PDFDocument.load(pdf.bytes, { updateMetadata: false });
    expect(doc.getTitle()).toBe('The Long Afternoon');
    expect(doc.getKeywords()).toContain('PRS-7K3M-9QXD-2HFA-J8TW');
    expect(doc.getCreationDate()?.toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(Buffer.from(pdf.bytes).toString('latin1')).not.toContain('author@example.com');
  });

  it('stamps a rotated page too', async () => {
    const pdf = await buildPersonaPdf(input({}, { kind: 'pdf', bytes: await sourcePdf(5, { rotateFourth: true }) }));
    const pages = await extractPageTexts(pdf.bytes);
    expect(pages[4]).toContain('Source page 4 text');
    expect(pages[4]).toContain(FOOTER);
  });

  it('is deterministic', async () => {
    const bytes = await sourcePdf(5);
    const a = await buildPersonaPdf(input({}, { kind: 'pdf', bytes }));
    const b = await buildPersonaPdf(input({}, { kind: 'pdf', bytes }));
    expect(Buffer.compare(Buffer.from(a.bytes), Buffer.from(b.bytes))).toBe(0);
  });

  it('throws UnreadableSourceError for bytes that are not a PDF', async () => {
    await expect(buildPersonaPdf(input({}, { kind: 'pdf', bytes: new TextEncoder().encode('this is not a pdf at all') }))).rejects.toBeInstanceOf(
      UnreadableSourceError,
    );
    await expect(buildPersonaPdf(input({}, { kind: 'pdf', bytes: new Uint8Array(0) }))).rejects.toBeInstanceOf(UnreadableSourceError);
    await expect(buildPersonaPdf(input({}, { kind: 'pdf', bytes: new TextEncoder().encode('%PDF-1.7\n%%EOF\n') }))).rejects.toBeInstanceOf(
      UnreadableSourceError,
    );
  });
});

describe('buildPersonaPdf input errors', () => {
  it('throws UnreadableSourceError for an empty text source', async () => {
    await expect(buildPersonaPdf(input({}, { kind: 'text', paragraphs: [] }))).rejects.toBeInstanceOf(UnreadableSourceError);
    await expect(buildPersonaPdf(input({}, { kind: 'text', paragraphs: ['   ', '# ', '\n'] }))).rejects.toBeInstanceOf(UnreadableSourceError);
  });

  it('rejects a purchase date that is not a calendar date', async () => {
    await expect(buildPersonaPdf(input({ purchaseDate: '2026-02-30' }))).rejects.toThrow(RangeError);
  });
});
