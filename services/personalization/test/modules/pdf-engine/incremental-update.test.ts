// The Persona as an incremental update of the book's own bytes: the structures
// sources come in (nested page trees, inherited attributes, cross-reference
// streams and object streams, classic tables, wrong offsets, earlier updates),
// what the new catalog and metadata drop, and the files' validity (pdf.js,
// pdf-lib, qpdf --check).
import { inflateSync } from 'node:zlib';
import { PDFDict, PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import type { PersonaDetails } from '@persona/contracts';
import {
  buildPersonaPdf,
  clearPersonaPdfCache,
  setPersonaPdfCacheLimit,
  UnreadableSourceError,
  type PersonaPdfInput,
} from '../../../src/modules/pdf-engine/build-persona-pdf';
import { generateSigningKey, sha256Hex } from '../../../src/modules/signing/persona-signature';
import { extractPageTexts, footerGeometry } from './extract-text';
import { HELVETICA, lastSection, qpdfCheck, rawPdf, textContent, type RawObject } from './raw-pdf';
import { personaInput } from '../../fixtures/persona-input';

const key = generateSigningKey();
const FOOTER = 'Personal copy of Zoë Ünal · PRS-7K3M-9QXD-2HFA-J8TW';

function input(source: PersonaPdfInput['source'], overrides: Partial<PersonaDetails> = {}): PersonaPdfInput {
  return personaInput(key, source, overrides);
}

/** Every byte of the file a reader could see: the raw bytes and every Flate stream inflated. */
function everything(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes).toString('latin1');
  const parts = [raw];
  const streams = /stream\r?\n/g;
  for (let match = streams.exec(raw); match; match = streams.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    try {
      parts.push(inflateSync(Buffer.from(bytes.subarray(start, end))).toString('latin1'));
    } catch {
      // not compressed
    }
  }
  return parts.join('\n');
}

/** Opens in pdf.js with `pages` pages, each carrying the footer; pdf-lib agrees; qpdf --check passes (when installed). */
async function expectSound(bytes: Uint8Array, pages: number, footer = FOOTER): Promise<string[]> {
  const texts = await extractPageTexts(bytes);
  expect(texts).toHaveLength(pages);
  texts.forEach((text) => expect(text.replace(/\s+/g, ' ')).toContain(footer));
  expect((await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount()).toBe(pages);
  const check = qpdfCheck(bytes);
  if (check) expect(check).toEqual({ ok: true, output: expect.stringContaining('No syntax or stream encoding errors found') });
  return texts;
}

/**
 * A hand-written book: a three-level page tree whose first page sits two nodes
 * down, resources, boxes and rotation inherited from different nodes, a page
 * font named like the footer's, and everything a Persona must not carry
 * over: an e-mail in /Info, XMP, an /OpenAction script, document and page
 * /AA, JavaScript in /Names, a form, page labels.
 */
function nestedSource(): Uint8Array {
  const objects: Record<number, RawObject> = {
    1: '<< /Type /Catalog /Pages 2 0 R /Metadata 30 0 R /OpenAction 31 0 R /AA << /WC 31 0 R >> /Names << /JavaScript 32 0 R /Dests 33 0 R >> /AcroForm << /Fields [] /NeedAppearances true >> /PageLabels << /Nums [0 << /S /r >>] >> /PageMode /UseOutlines /Lang (en) >>',
    2: '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 6 /Resources 20 0 R /MediaBox [0 0 432 648] >>',
    3: '<< /Type /Pages /Parent 2 0 R /Kids [5 0 R 6 0 R] /Count 3 >>',
    4: '<< /Type /Pages /Parent 2 0 R /Kids [12 0 R 13 0 R 14 0 R] /Count 3 /Rotate 270 /Resources << /Font << /F1 21 0 R /Persona-sans 21 0 R >> >> >>',
    5: '<< /Type /Pages /Parent 3 0 R /Kids [10 0 R 11 0 R] /Count 2 /CropBox [10 10 422 638] /Rotate 180 >>',
    6: '<< /Type /Page /Parent 3 0 R /Contents 52 0 R /Rotate 90 >>',
    10: '<< /Type /Page /Parent 5 0 R /Contents 50 0 R >>',
    11: '<< /Type /Page /Parent 5 0 R /Contents [51 0 R] /AA << /O 31 0 R >> >>',
    12: '<< /Type /Page /Parent 4 0 R /Contents 53 0 R >>',
    13: '<< /Type /Page /Parent 4 0 R /Contents 56 0 R /Rotate 0 >>',
    14: '<< /Type /Page /Parent 4 0 R /Contents 55 0 R /MediaBox [0 0 300 600] >>',
    20: '<< /Font << /F1 21 0 R >> /ProcSet [/PDF /Text] >>',
    21: HELVETICA,
    30: {
      dict: '<< /Type /Metadata /Subtype /XML >>',
      data: '<x:xmpmeta xmlns:x="adobe:ns:meta/"><dc:creator>xmp-secret@example.com</dc:creator></x:xmpmeta>',
    },
    31: "<< /S /JavaScript /JS (app.alert\\('hello'\\)) >>",
    32: '<< /Names [(x) 31 0 R] >>',
    33: '<< /Chapter [10 0 R /XYZ 0 648 0] >>',
    40: '<< /Title (Source with author@example.com) /Author (someone@example.com) /Producer (by hand) >>',
    50: textContent('Original Title Page'),
    51: textContent('Source page 2 text'),
    52: textContent('Source page 3 text'),
    53: textContent('Source page 4 text'),
    55: textContent('Source page 6 text'),
    56: textContent('Source page 5 text', 'Persona-sans'),
  };
  return rawPdf(objects, '/Root 1 0 R /Info 40 0 R');
}

describe('a Persona of a hand-written book with a nested page tree (classic cross-reference table)', () => {
  let source: Uint8Array;
  let pdf: Awaited<ReturnType<typeof buildPersonaPdf>>;
  let texts: string[];

  beforeAll(async () => {
    source = nestedSource();
    pdf = await buildPersonaPdf(input({ kind: 'pdf', bytes: source }));
    texts = await expectSound(pdf.bytes, 8);
  });

  it('keeps the pages in order with the dedication after the first, the colophon after the last, and the footer on every one', () => {
    expect(pdf.pages).toBe(8);
    expect(texts[0]).toContain('Original Title Page');
    expect(texts[1]).toContain('Personalised for Zoë Ünal');
    for (let n = 2; n <= 6; n += 1) expect(texts[n]).toContain(`Source page ${n} text`);
    // Hung from the root of the nested tree, after the deepest last page.
    expect(texts[7]).toContain('Colophon');
  });

  it('is the book unchanged plus one update: a classic table whose /Prev is the book’s startxref', () => {
    const bookStartxref = /startxref\s+(\d+)/.exec(Buffer.from(source).toString('latin1'))?.[1];
    const section = lastSection(pdf.bytes);
    expect(section.kind).toBe('table');
    expect(section.text).toContain(`/Prev ${bookStartxref}`);
    expect(section.text.toLowerCase()).toMatch(/\/id \[ <[0-9a-f]{32}> <[0-9a-f]{32}> \]/);
    // The book's bytes come first, as they were but for the blanked metadata.
    const before = Buffer.from(source).toString('latin1');
    const after = Buffer.from(pdf.bytes.subarray(0, source.length)).toString('latin1');
    expect(after.slice(0, before.indexOf('30 0 obj'))).toBe(before.slice(0, before.indexOf('30 0 obj')));
  });

  it('keeps each page’s inherited rotation, and sets the dedication upright at the first page’s visible size', async () => {
    const doc = await PDFDocument.load(pdf.bytes, { updateMetadata: false });
    expect(doc.getPages().map((page) => page.getRotation().angle)).toEqual([180, 0, 180, 90, 270, 0, 270, 0]);
    expect(doc.getPage(1).getSize()).toEqual({ width: 412, height: 628 });
    expect(doc.getPage(1).getCropBox()).toEqual({ x: 0, y: 0, width: 412, height: 628 });
  });

  it('shows every footer upright, centred along the visible bottom edge, whatever the page’s crop box and rotation', async () => {
    const pages = await footerGeometry(pdf.bytes);
    expect(pages.map((page) => page.rotate)).toEqual([180, 0, 180, 90, 270, 0, 270, 0]);
    for (const page of pages) {
      expect(page.footer).toHaveLength(1);
      const { start, end } = page.footer[0];
      expect(Math.abs(end[1] - start[1])).toBeLessThan(0.5);
      expect(end[0]).toBeGreaterThan(start[0]);
      expect(Math.abs((start[0] + end[0]) / 2 - page.width / 2)).toBeLessThan(1);
      expect(page.height - start[1]).toBeGreaterThan(15);
      expect(page.height - start[1]).toBeLessThan(30);
    }
  });

  it('draws the footer with a font name no page uses, so a page font called /Persona-sans keeps its text', () => {
    expect(texts[5]).toContain('Source page 5 text');
    expect(Buffer.from(pdf.bytes).toString('latin1')).toMatch(/\/Persona-sans_ \d+ 0 R/);
  });

  it('drops the source’s XMP, scripts, actions, form and page labels from the new catalog and pages', async () => {
    const doc = await PDFDocument.load(pdf.bytes, { updateMetadata: false });
    const catalog = doc.catalog;
    for (const key of ['Metadata', 'OpenAction', 'AA', 'AcroForm', 'PageLabels', 'PageMode']) expect(catalog.get(PDFName.of(key))).toBeUndefined();
    const names = catalog.lookup(PDFName.of('Names'), PDFDict);
    expect(names.keys().map(String)).toEqual(['/Dests']);
    expect(String(catalog.get(PDFName.of('Lang')))).toBe('(en)');
    for (const page of doc.getPages()) expect(page.node.get(PDFName.of('AA'))).toBeUndefined();
  });

  it('keeps no trace of the source’s metadata: its /Info and XMP are blanked in the book’s bytes', async () => {
    const seen = everything(pdf.bytes);
    for (const secret of ['author@example.com', 'someone@example.com', 'xmp-secret@example.com', 'by hand']) expect(seen).not.toContain(secret);
    const doc = await PDFDocument.load(pdf.bytes, { updateMetadata: false });
    expect(doc.getTitle()).toBe('The Long Afternoon');
    expect(doc.getProducer()).toBe('Persona Books');
  });
});

async function pdfLibSource(pages: number, options: { objectStreams: boolean }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Source title with author@example.com');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n += 1) {
    doc.addPage([432, 648]).drawText(n === 1 ? 'Original Title Page' : `Source page ${n} text`, { x: 60, y: 500, size: 14, font });
  }
  return doc.save({ useObjectStreams: options.objectStreams });
}

describe('a Persona of a book with cross-reference streams and object streams', () => {
  it('writes its update as a cross-reference stream, and blanks the /Info kept in an object stream', async () => {
    const source = await pdfLibSource(12, { objectStreams: true });
    expect(lastSection(source).kind).toBe('stream');
    const pdf = await buildPersonaPdf(input({ kind: 'pdf', bytes: source }));
    const texts = await expectSound(pdf.bytes, 14);
    expect(texts[0]).toContain('Original Title Page');
    expect(texts[12]).toContain('Source page 12 text');
    const section = lastSection(pdf.bytes);
    expect(section.kind).toBe('stream');
    expect(section.text).toMatch(/\/Type \/XRef/);
    expect(section.text).toMatch(/\/Prev \d+/);
    expect(everything(pdf.bytes)).not.toContain('author@example.com');
  });

  it('writes its update as a classic table when the book has one', async () => {
    const source = await pdfLibSource(4, { objectStreams: false });
    const pdf = await buildPersonaPdf(input({ kind: 'pdf', bytes: source }));
    await expectSound(pdf.bytes, 6);
    expect(lastSection(pdf.bytes).kind).toBe('table');
    expect(everything(pdf.bytes)).not.toContain('author@example.com');
  });
});

describe('sources that need more than an update', () => {
  it('rewrites a book whose cross-reference offsets are wrong, and personalises the result', async () => {
    const objects: Record<number, RawObject> = {
      1: '<< /Type /Catalog /Pages 2 0 R >>',
      2: '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 420 595] /Resources << /Font << /F1 5 0 R >> >> >>',
      3: '<< /Type /Page /Parent 2 0 R /Contents 6 0 R >>',
      4: '<< /Type /Page /Parent 2 0 R /Contents 7 0 R >>',
      5: HELVETICA,
      6: textContent('Original Title Page'),
      7: textContent('Source page 2 text'),
    };
    const pdf = await buildPersonaPdf(input({ kind: 'pdf', bytes: rawPdf(objects, '/Root 1 0 R', { shiftOffsetsBy: 3 }) }));
    const texts = await expectSound(pdf.bytes, 4);
    expect(texts[2]).toContain('Source page 2 text');
  });

  it('refuses an encrypted book', async () => {
    const objects: Record<number, RawObject> = {
      1: '<< /Type /Catalog /Pages 2 0 R >>',
      2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] >>',
      9: '<< /Filter /Standard /V 1 /R 2 /O (0123456789abcdef0123456789abcdef) /U (0123456789abcdef0123456789abcdef) /P -4 >>',
    };
    const build = buildPersonaPdf(input({ kind: 'pdf', bytes: rawPdf(objects, '/Root 1 0 R /Encrypt 9 0 R /ID [<00> <00>]') }));
    await expect(build).rejects.toBeInstanceOf(UnreadableSourceError);
    await expect(build).rejects.toThrow(/encrypted/);
  });

  it('refuses a book without pages', async () => {
    const objects: Record<number, RawObject> = { 1: '<< /Type /Catalog /Pages 2 0 R >>', 2: '<< /Type /Pages /Kids [] /Count 0 >>' };
    await expect(buildPersonaPdf(input({ kind: 'pdf', bytes: rawPdf(objects, '/Root 1 0 R') }))).rejects.toBeInstanceOf(UnreadableSourceError);
  });

  it('personalises a Persona again (a file that already has an update), blanking the first buyer’s metadata', async () => {
    const first = await buildPersonaPdf(
      input({ kind: 'text', paragraphs: ['# One', 'A short book.'] }, { personaId: 'PRS-AAAA-BBBB-CCCC-DDDD', buyerName: 'First Buyer' }),
    );
    const again = await buildPersonaPdf(input({ kind: 'pdf', bytes: first.bytes }));
    const texts = await expectSound(again.bytes, first.pages + 2);
    expect(texts[1]).toContain('Personalised for Zoë Ünal');
    expect(texts[2]).toContain('Personalised for First Buyer');
    expect(Buffer.from(again.bytes).toString('latin1')).not.toContain('PRS-AAAA-BBBB-CCCC-DDDD');
  });
});

describe('prepared books are cached', () => {
  afterAll(() => setPersonaPdfCacheLimit(64 * 1024 * 1024));

  it('gives the same bytes whether the book was prepared for this Persona or taken from the cache', async () => {
    for (const source of [
      { kind: 'pdf' as const, bytes: nestedSource() },
      { kind: 'text' as const, paragraphs: ['# One', 'Some text.', 'More text.'] },
    ]) {
      clearPersonaPdfCache();
      const cold = await buildPersonaPdf(input(source));
      const cached = await buildPersonaPdf(input(source));
      setPersonaPdfCacheLimit(0);
      const uncached = await buildPersonaPdf(input(source));
      setPersonaPdfCacheLimit(64 * 1024 * 1024);
      expect(sha256Hex(cached.bytes)).toBe(sha256Hex(cold.bytes));
      expect(sha256Hex(uncached.bytes)).toBe(sha256Hex(cold.bytes));
    }
  });

  it('makes a further Persona of the same book for another buyer, sound and different', async () => {
    const source = { kind: 'pdf' as const, bytes: await pdfLibSource(6, { objectStreams: true }) };
    const a = await buildPersonaPdf(input(source));
    const b = await buildPersonaPdf(input(source, { buyerName: 'अनन्या Rao', personaId: 'PRS-2HFA-J8TW-7K3M-9QXD' }));
    expect(sha256Hex(a.bytes)).not.toBe(sha256Hex(b.bytes));
    const texts = await expectSound(b.bytes, 8, 'Personal copy of अनन्या Rao · PRS-2HFA-J8TW-7K3M-9QXD');
    expect(texts[1]).toContain('अनन्या');
  });

  it('leaves a returned file alone when the next Persona is built (each file has its own buffer)', async () => {
    const source = { kind: 'pdf' as const, bytes: await pdfLibSource(3, { objectStreams: false }) };
    const a = await buildPersonaPdf(input(source));
    const copy = Buffer.from(a.bytes);
    a.bytes.fill(0);
    const b = await buildPersonaPdf(input(source));
    expect(Buffer.from(b.bytes).equals(copy)).toBe(true);
    expect(b.bytes.buffer.byteLength).toBe(b.bytes.byteLength);
  });
});

describe('a Persona of a typeset book', () => {
  it('opens in pdf.js, pdf-lib and qpdf with the footer on every page', async () => {
    const paragraphs = ['# Chapter One', ...Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1}. ${'Words on a line that wraps. '.repeat(8)}`)];
    const pdf = await buildPersonaPdf(input({ kind: 'text', paragraphs }));
    const texts = await expectSound(pdf.bytes, pdf.pages);
    expect(texts[0]).toContain('The Long Afternoon');
    expect(texts[1]).toContain('Personalised for Zoë Ünal');
    expect(texts[2]).toContain('Chapter One');
    expect(lastSection(pdf.bytes).kind).toBe('table');
  });
});
