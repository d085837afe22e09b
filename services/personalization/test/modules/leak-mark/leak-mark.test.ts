// The leak mark (issue 13, point 7): written into every Persona PDF and EPUB, read back from a copy
// after what a leaker does to it (the footer and the dedication page cut out, the metadata removed,
// the file re-saved by qpdf or redrawn by pdftocairo, the EPUB's text converted), and never found in
// a copy it was not written into.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, PDFName, PDFRawStream, StandardFonts, decodePDFRawStream, degrees, type PDFRef } from 'pdf-lib';
import type { PersonaDetails } from '@persona/contracts';
import { itWithPrograms, PDFTOCAIRO, QPDF } from '@persona/test-kit';
import { buildPersonaEpub } from '../../../src/modules/epub/build-persona-epub';
import { BudgetMeter, DOCUMENT_BUDGET, readZip } from '@persona/untrusted';
import { zip } from '../../../src/modules/epub/zip';
import { epubMarker, framesInText } from '../../../src/modules/leak-mark/epub-mark';
import { FRAME_BITS, agreeOnMark, frameBits, leakMark, markOfFrame, markSecret } from '../../../src/modules/leak-mark/mark-code';
import { frameOfRow, markCells, MARK_CELLS } from '../../../src/modules/leak-mark/pdf-mark';
import { copyFormat } from '../../../src/modules/leak-mark/copy-format';
import { readMark } from '../../../src/modules/leak-mark/read-mark';
import { buildPersonaPdf, type PersonaPdfInput } from '../../../src/modules/pdf-engine/build-persona-pdf';
import { generateSigningKey, signPersona } from '../../../src/modules/signing/persona-signature';
import { extractPageTexts } from '../pdf-engine/extract-text';
import { personaInput } from '../../fixtures/persona-input';

const key = generateSigningKey();
const secret = markSecret(key.privateKey);
const record = (personaId: string, name = 'Zoë Ünal'): PersonaDetails => ({
  personaId,
  bookId: 'book-1',
  title: 'The Long Afternoon',
  author: 'Asha Rao',
  buyerName: name,
  purchaseDate: '2026-11-22',
});
const A = 'PRS-7K3M-9QXD-2HFA-J8TW';
const B = 'PRS-2M4P-8RTV-6WXY-3KLN';

const paragraphs = [
  '# Chapter One: The Ledger',
  ...Array.from(
    { length: 14 },
    (_, i) =>
      `Paragraph ${i + 1} begins here, as the warehouse on Bazaar Road opens. The ledger lies on the desk; its pages are ruled in red, and the clerk reads them twice. Nobody speaks: the rain has come early.`,
  ),
  '# Chapter Two: The River',
  ...Array.from({ length: 10 }, (_, i) => `The river ${i + 1} runs past the ghats, slow and brown. Boats wait, tied two by two; the boatmen sleep.`),
];

function input(personaId: string, source: PersonaPdfInput['source'], name?: string): PersonaPdfInput {
  return personaInput(key, source, { personaId, ...(name ? { buyerName: name } : {}) });
}

async function publisherPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n += 1) {
    const page = doc.addPage([432, 648]);
    // Text up to the very top of the page: the row of dots is drawn over it.
    for (let y = 630; y > 40; y -= 14) page.drawText(`Publisher page ${n}, line at ${y}: the text runs edge to edge.`, { x: 20, y, size: 10, font });
    if (n === 3) page.setRotation(degrees(90));
  }
  return doc.save();
}

const withTools = itWithPrograms([QPDF, PDFTOCAIRO], 'the mark after re-saving by qpdf and pdftocairo is');

/** Runs a program on a PDF, as a leaker would: file in, file out. */
function transform(bytes: Uint8Array, program: string, args: (input: string, output: string) => string[]): Uint8Array {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'persona-leak-'));
  try {
    const [from, to] = [path.join(dir, 'in.pdf'), path.join(dir, 'out.pdf')];
    writeFileSync(from, bytes);
    execFileSync(program, args(from, to), { stdio: 'ignore' });
    return new Uint8Array(readFileSync(to));
  } catch (err) {
    // qpdf exits 3 for warnings and still writes the file.
    if ((err as { status?: number }).status === 3) return new Uint8Array(readFileSync(path.join(dir, 'out.pdf')));
    throw err;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const qpdfResave = (bytes: Uint8Array) =>
  transform(bytes, QPDF.path, (i, o) => [
    '--object-streams=generate',
    '--recompress-flate',
    '--compression-level=9',
    '--remove-unreferenced-resources=yes',
    i,
    o,
  ]);
const cairoRedraw = (bytes: Uint8Array) => transform(bytes, PDFTOCAIRO.path, (i, o) => ['-pdf', i, o]);

/**
 * What a leaker does first: every footer taken out of the page contents (the pagination artifacts,
 * as "remove header and footer" tools do), the dedication page (which names the buyer) and the
 * colophon at the end (which names the copy, issue 24) deleted, the document information, XMP and
 * /ID dropped; saved by pdf-lib.
 */
async function stripped(bytes: Uint8Array, dedicationPage = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const { context } = doc;
  for (const page of doc.getPages()) {
    const contents = page.node.get(PDFName.of('Contents'));
    const refs = (contents && 'asArray' in contents ? (contents as unknown as { asArray(): PDFRef[] }).asArray() : [contents]) as PDFRef[];
    for (const ref of refs) {
      const stream = context.lookup(ref);
      if (!(stream instanceof PDFRawStream)) continue;
      const text = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
      const cut = text.replace(/\/Artifact\s*<<[^>]*\/Pagination[^>]*>>\s*BDC[\s\S]*?EMC/g, '');
      if (cut !== text) context.assign(ref, context.flateStream(Buffer.from(cut, 'latin1')));
    }
  }
  // Copied into a new file: only what the kept pages use is written (no document information, no XMP, no /ID).
  const out = await PDFDocument.create({ updateMetadata: false });
  const colophon = doc.getPageCount() - 1;
  const kept = doc.getPageIndices().filter((n) => n !== dedicationPage && n !== colophon);
  for (const page of await out.copyPages(doc, kept)) out.addPage(page);
  return out.save({ useObjectStreams: false, updateFieldAppearances: false });
}

describe('the mark code', () => {
  it('carries 48 bits and a CRC that refuses a frame read wrongly', () => {
    const mark = leakMark(secret, A);
    expect(mark).toBeLessThan(2 ** 48);
    expect(leakMark(secret, A)).toBe(mark);
    expect(leakMark(secret, B)).not.toBe(mark);
    expect(leakMark(markSecret(generateSigningKey().privateKey), A)).not.toBe(mark);
    const bits = frameBits(mark);
    expect(bits).toHaveLength(FRAME_BITS);
    expect(markOfFrame(bits)).toBe(mark);
    for (const at of [0, 17, 47, 50]) {
      const wrong = [...bits];
      wrong[at] = 1 - wrong[at]!;
      expect(markOfFrame(wrong)).toBeNull();
    }
    expect(markOfFrame(bits.slice(1))).toBeNull();
  });

  it('is read from a row of dots whatever its scale and place, and not from a row that is not one', () => {
    const mark = leakMark(secret, A);
    const cells = markCells(mark);
    expect(cells).toHaveLength(FRAME_BITS + 2);
    expect(cells.at(-1)).toBe(MARK_CELLS - 1);
    expect(markOfFrame(frameOfRow(cells.map((c) => 312.5 + c * 9.6))!)).toBe(mark);
    expect(markOfFrame(frameOfRow(cells.map((c) => -4 + c * 2.4 + (c % 3) * 0.2))!)).toBe(mark);
    expect(frameOfRow(cells.slice(1).map((c) => c * 3))).toBeNull();
    expect(frameOfRow([...cells.slice(0, 10), ...cells.slice(11)].concat([200]).map((c) => c * 3))).toBeNull();
  });

  it('agrees on the mark most frames carry, outvoting damaged ones', () => {
    const mark = leakMark(secret, A);
    const bits = frameBits(mark);
    const damaged = (at: number) => bits.map((b, i) => (i === at ? 1 - b : b));
    expect(agreeOnMark([bits, damaged(3), bits])).toEqual({ mark, frames: 3, agreeing: 2 });
    expect(agreeOnMark([damaged(3), damaged(20), damaged(40)])).toEqual({ mark, frames: 3, agreeing: 0 });
    expect(agreeOnMark([damaged(3)])).toBeNull();
    expect(agreeOnMark([])).toBeNull();
  });
});

describe('the mark in a Persona PDF', () => {
  let textA: Uint8Array;
  let textB: Uint8Array;
  let publisherA: Uint8Array;

  beforeAll(async () => {
    textA = (await buildPersonaPdf(input(A, { kind: 'text', paragraphs }))).bytes;
    textB = (await buildPersonaPdf(input(B, { kind: 'text', paragraphs }, 'Meera Iyer'))).bytes;
    publisherA = (await buildPersonaPdf(input(A, { kind: 'pdf', bytes: await publisherPdf(4) }))).bytes;
  });

  it('is on every page of the copy as made, and tells two copies of one book apart', async () => {
    const a = await readMark(textA);
    expect(a).toMatchObject({ format: 'pdf', mark: leakMark(secret, A), agreeing: 3 });
    expect((await readMark(textB)).mark).toBe(leakMark(secret, B));
  });

  it('survives the footer, the dedication page and the metadata cut out', async () => {
    const leaked = await stripped(textA);
    const pages = await extractPageTexts(leaked);
    // What was cut is gone: no page and no byte names the copy any more.
    expect(pages.join('\n')).not.toContain(A);
    expect(pages.join('\n')).not.toContain('Zoë');
    expect(pages.join('\n')).toContain('The ledger lies on the desk');
    expect(Buffer.from(leaked).toString('latin1')).not.toContain(A);
    expect((await readMark(leaked)).mark).toBe(leakMark(secret, A));
  });

  withTools('survives re-saving by qpdf and redrawing by pdftocairo, after the cuts', async () => {
    const leaked = await stripped(textA);
    expect((await readMark(qpdfResave(leaked))).mark).toBe(leakMark(secret, A));
    const redrawn = cairoRedraw(leaked);
    expect(Buffer.from(redrawn).toString('latin1')).toMatch(/cairo/i);
    expect((await readMark(redrawn)).mark).toBe(leakMark(secret, A));
  });

  withTools("is on a publisher's PDF's pages too, a turned page included, through the same changes", async () => {
    expect((await readMark(publisherA)).mark).toBe(leakMark(secret, A));
    const leaked = await stripped(publisherA);
    expect((await extractPageTexts(leaked)).join('\n')).not.toContain(A);
    expect((await readMark(cairoRedraw(qpdfResave(leaked)))).mark).toBe(leakMark(secret, A));
    // Only the turned page left: still enough.
    const pages = await PDFDocument.load(leaked);
    const only = await PDFDocument.create();
    const [third] = await only.copyPages(pages, [2]);
    only.addPage(third);
    expect(only.getPage(0).getRotation().angle).toBe(90);
    expect((await readMark(cairoRedraw(await only.save()))).mark).toBe(leakMark(secret, A));
  });

  it('is not found in a PDF it was not written into', async () => {
    const plain = await readMark(await publisherPdf(3));
    expect(plain).toMatchObject({ format: 'pdf', mark: null, read: 3, agreeing: 0 });
  });
});

describe('the mark in a Persona EPUB', () => {
  const epub = (personaId: string, text: string[] = paragraphs, language = 'English') =>
    buildPersonaEpub({
      record: record(personaId),
      signature: signPersona(record(personaId), key),
      keyId: key.keyId,
      privateKey: key.privateKey,
      verifyUrl: `https://shop.example/verify/${personaId}`,
      paragraphs: text,
      language,
      mark: leakMark(secret, personaId),
    });

  /** The chapters' text as a converter to plain text writes it: their paragraphs without markup, colophon or metadata. */
  function plainText(bytes: Uint8Array): string {
    const chapters = readZip(bytes, new BudgetMeter(DOCUMENT_BUDGET, 'The EPUB'))
      .filter((e) => /chapter-\d+\.xhtml$/.test(e.name))
      .map((e) => e.data.toString('utf8'));
    return chapters
      .map((c) =>
        [...c.matchAll(/<p>([\s\S]*?)<\/p>/g)]
          .map(([, p]) => p!)
          .filter((p) => !p.includes('Personal copy of'))
          .join('\n\n'),
      )
      .join('\n\n')
      .replace(/[ \t]+/g, ' ');
  }

  /** A converter's work: the chapters' text only (no colophon, no metadata, no markup of ours), as one plain document in a new EPUB. */
  function converted(bytes: Uint8Array): Uint8Array {
    const text = plainText(bytes);
    expect(text).not.toContain(A);
    const body = text
      .split('\n\n')
      .map((p) => `<p>${p}</p>`)
      .join('\n');
    const day = new Date('2026-01-01T00:00:00Z');
    return zip(
      [
        { name: 'mimetype', data: Buffer.from('application/epub+zip'), store: true },
        {
          name: 'META-INF/container.xml',
          data: Buffer.from('<container><rootfiles><rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'),
        },
        { name: 'book.opf', data: Buffer.from('<package><manifest><item id="t" href="text.html"/></manifest><spine><itemref idref="t"/></spine></package>') },
        { name: 'text.html', data: Buffer.from(`<html><body>${body}</body></html>`) },
      ],
      day,
    );
  }

  it('is in the text of the copy as made, and tells two copies apart', async () => {
    const a = await epub(A);
    expect(copyFormat(a)).toBe('epub');
    const read = await readMark(a);
    expect(read.mark).toBe(leakMark(secret, A));
    expect(read.agreeing).toBeGreaterThanOrEqual(3);
    expect((await readMark(await epub(B))).mark).toBe(leakMark(secret, B));
  });

  it('survives the conversion of its text, colophon and metadata left behind', async () => {
    expect((await readMark(converted(await epub(A)))).mark).toBe(leakMark(secret, A));
  });

  it('keeps the text as it reads: only characters that print nothing are added, after punctuation', () => {
    const mark = epubMarker(leakMark(secret, A), paragraphs.slice(1));
    const marked = paragraphs.slice(1).map(mark);
    expect(marked.map((p) => p.replace(/[\u2060\u200B\u200C]/g, ''))).toEqual(paragraphs.slice(1));
    expect(marked.join(' ')).toMatch(/[.,;:][\u2060\u200B\u200C]+ /);
    expect(markOfFrame(framesInText(marked.join('\n'))[0]!)).toBe(leakMark(secret, A));
    // A ZWNJ the text uses inside a word is its own, never read as a symbol.
    expect(framesInText('क्\u200Cष and \u200C\u200B words')).toEqual([]);
  });

  // Books whose sentences end in "।" or "." and that have few commas: too few places after punctuation
  // for three frames one symbol at a time (the Persian one uses ZWNJ inside its words, as Persian does).
  const hindi = [
    '# अध्याय एक: सुबह',
    'सूरज उगा और गाँव की गलियों में धूप फैल गई। मंदिर की घंटियाँ बजने लगीं और बच्चे स्कूल की ओर दौड़ पड़े। दादी आँगन में बैठकर चावल बीन रही थीं।',
    'रमेश ने खेत की मेड़ पर खड़े होकर आसमान की ओर देखा। बादल अभी दूर थे पर हवा में नमी थी। उसने सोचा कि इस बार बारिश समय पर आएगी।',
    'दोपहर को बाज़ार में भीड़ बढ़ गई। सब्ज़ीवाले ज़ोर ज़ोर से आवाज़ लगा रहे थे। एक बूढ़ा आदमी पेड़ की छाँव में बैठा अख़बार पढ़ रहा था।',
    '# अध्याय दो: शाम',
    'शाम होते ही नदी के किनारे दीये जलने लगे। औरतें गीत गाती हुई घाट की सीढ़ियों से उतरीं, और पानी में फूल बहा दिए। आरती की आवाज़ दूर तक सुनाई दी।',
    'रात को सब लोग चौपाल पर इकट्ठा हुए। मुखिया जी ने नए कुएँ की बात छेड़ी। किसी ने पूछा कि पैसा कहाँ से आएगा। सबने मिलकर तय किया कि हर घर थोड़ा थोड़ा देगा।',
  ];
  const bengali = [
    '# প্রথম অধ্যায়',
    'সকালে সূর্য উঠল আর গ্রামের পথে রোদ ছড়িয়ে পড়ল। মন্দিরের ঘণ্টা বাজতে লাগল। ছেলেমেয়েরা হাসতে হাসতে স্কুলের দিকে ছুটল।',
    'দুপুরে হাটে খুব ভিড় হল। মাছওয়ালা জোরে জোরে ডাকছিল আর এক বুড়ো মানুষ বটগাছের ছায়ায় বসে খবরের কাগজ পড়ছিলেন।',
    'সন্ধ্যায় নদীর ঘাটে প্রদীপ জ্বলে উঠল। মেয়েরা গান গাইতে গাইতে জলে ফুল ভাসিয়ে দিল, আর দূর থেকে শাঁখের আওয়াজ ভেসে এল।',
  ];
  const arabic = [
    '# الفصل الأول',
    'أشرقت الشمس على القرية الصغيرة وامتلأت الأزقة بالضوء. خرج الأطفال إلى المدرسة وهم يضحكون. جلست الجدة في الفناء تنقي الأرز.',
    'في الظهيرة ازدحم السوق بالناس. كان بائع الخضار ينادي بصوت عال، وكان رجل عجوز يقرأ الجريدة في ظل شجرة.',
    'هل سيأتي المطر هذا العام؟ سأل الفلاح جاره وهو ينظر إلى السماء. قال الجار إن الغيوم ما زالت بعيدة.',
  ];
  const persian = [
    '# فصل یکم',
    'بچه\u200Cها صبح زود به مدرسه می\u200Cروند. مادربزرگ در حیاط خانه\u200Cاش برنج پاک می\u200Cکند.',
    'باران که می\u200Cآید همه به خانه\u200Cها برمی\u200Cگردند. شب\u200Cها قصه\u200Cهای قدیمی گفته می\u200Cشود.',
  ];
  const PUNCTUATION = /[.,;:!?।॥؟،؛۔]/u;
  /** The mark's symbols as written: a run of them before white space or at the text's end (never inside a word). */
  const SYMBOLS = /[\u2060\u200B\u200C]+(?=\s|$)/gu;
  /** A book's paragraphs as plainText gives them back. */
  const bodyText = (text: readonly string[]) =>
    text
      .filter((p) => !p.startsWith('#'))
      .map((p) => p.normalize('NFC'))
      .join('\n\n');
  /** Letters, their marks and digits, and the joiners a script uses inside a word. */
  const WORD = /^[\p{L}\p{M}\p{N}\u200C\u200D]+$/u;

  /** Every pair and triple of adjacent words with only white space between them, as a reader searches for them. */
  function phrases(text: readonly string[]): string[] {
    const found: string[] = [];
    for (const paragraph of text.filter((p) => !p.startsWith('#'))) {
      for (const clause of paragraph.normalize('NFC').split(/[^\p{L}\p{M}\p{N}\u200C\u200D\s]+/u)) {
        const words = clause.split(/\s+/u).filter(Boolean);
        expect(words.every((w) => WORD.test(w))).toBe(true);
        for (let i = 0; i + 1 < words.length; i += 1) {
          found.push(words.slice(i, i + 2).join(' '));
          if (i + 2 < words.length) found.push(words.slice(i, i + 3).join(' '));
        }
      }
    }
    return found;
  }

  it.each([
    ['Hindi', hindi],
    ['Bengali', bengali],
    ['Arabic', arabic],
    ['Persian', persian],
    ['English', paragraphs],
  ])('leaves every word and phrase of a book in %s whole, and is read back from it and from its plain text', async (language, text) => {
    const bytes = await epub(A, text, language);
    const plain = plainText(bytes);
    const wanted = phrases(text);
    expect(wanted.length).toBeGreaterThan(20);
    const missing = wanted.filter((phrase) => !plain.includes(phrase));
    expect(missing).toEqual([]);
    // The symbols are only after punctuation (every paragraph of these books ends in some).
    const runs = [...plain.matchAll(SYMBOLS)];
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) {
      expect(plain[run.index - 1]).toMatch(PUNCTUATION);
      expect(plain.slice(run.index + run[0].length, run.index + run[0].length + 1)).toMatch(/^(\s|$)/u);
    }
    // Nothing else is added, and the text's own ZWNJs (Persian) are kept where they are.
    expect(plain.replace(SYMBOLS, '')).toBe(bodyText(text));
    const mark = leakMark(secret, A);
    const read = await readMark(bytes);
    expect(read).toMatchObject({ mark });
    expect(read.agreeing).toBeGreaterThanOrEqual(3);
    const frames = framesInText(plain);
    expect(frames.length).toBeGreaterThanOrEqual(3);
    expect(agreeOnMark(frames)).toMatchObject({ mark });
    expect((await readMark(converted(bytes))).mark).toBe(mark);
  });

  it('in a Latin book, is only after punctuation', async () => {
    const plain = plainText(await epub(A));
    expect(plain.replace(/[.,;:!?][\u2060\u200B\u200C]+(?=\s|$)/gu, (p) => p[0]!)).toBe(plain.replace(SYMBOLS, ''));
    expect(plain.replace(SYMBOLS, '')).toBe(bodyText(paragraphs));
  });

  it('carries three whole frames in a book of three places to write in, one of them a paragraph that ends in a word', async () => {
    const short = ['# एक', 'सूरज उगा। चिड़िया गाई।', 'हवा चली'];
    const bytes = await epub(A, short, 'Hindi');
    const plain = plainText(bytes);
    expect(plain.replace(SYMBOLS, '')).toBe(bodyText(short));
    expect(phrases(short).every((phrase) => plain.includes(phrase))).toBe(true);
    const mark = leakMark(secret, A);
    expect(await readMark(bytes)).toMatchObject({ mark, read: 3, agreeing: 3 });
    expect(agreeOnMark(framesInText(plain))).toEqual({ mark, frames: 3, agreeing: 3 });
    expect((await readMark(converted(bytes))).mark).toBe(mark);
    // One place only: a paragraph's end carries all three.
    const alone = epubMarker(mark, ['सूरज उगा']);
    expect(agreeOnMark(framesInText(alone('सूरज उगा')))).toEqual({ mark, frames: 3, agreeing: 3 });
  });

  it('still reads a copy sold before runs, one symbol after every word', () => {
    const mark = leakMark(secret, A);
    const symbols = ['\u2060', ...frameBits(mark).map((bit) => (bit ? '\u200C' : '\u200B'))];
    const words = Array.from({ length: 3 * symbols.length }, (_, i) => `शब्द${i}${symbols[i % symbols.length]}`);
    expect(agreeOnMark(framesInText(words.join(' ')))).toEqual({ mark, frames: 3, agreeing: 3 });
  });

  it('reads a long run of symbols that a letter ends at once, and finds nothing in it', () => {
    const started = Date.now();
    expect(framesInText(`${'\u200C'.repeat(200_000)}क ${'\u2060\u200B'.repeat(100_000)}x`)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('is not found in an EPUB it was not written into', async () => {
    const plain = zip(
      [
        { name: 'mimetype', data: Buffer.from('application/epub+zip'), store: true },
        { name: 'text.xhtml', data: Buffer.from(`<html><body><p>${paragraphs.join(' ')}</p></body></html>`) },
      ],
      new Date('2026-01-01T00:00:00Z'),
    );
    expect(await readMark(plain)).toMatchObject({ format: 'epub', mark: null, read: 0 });
  });
});

describe('a copy that is neither', () => {
  it('is told apart by its first bytes', () => {
    expect(copyFormat(new TextEncoder().encode('%PDF-1.7\n'))).toBe('pdf');
    expect(copyFormat(new TextEncoder().encode('junk\n%PDF-1.4\n'))).toBe('pdf');
    expect(copyFormat(new TextEncoder().encode('PK\x03\x04 a zip that is no EPUB'))).toBeNull();
    expect(copyFormat(new TextEncoder().encode('plain text'))).toBeNull();
  });
});
