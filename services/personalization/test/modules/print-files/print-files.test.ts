// A printed Persona's files (issue 27): for every demo book and for a 300-page one, the interior
// (TrimBox and BleedBox on every page, 0.125 in of bleed, an even count, fonts embedded) and the
// cover spread (back, spine and front with bleed, the spine as wide as the formula says, the cover
// image at 300 ppi or more), each passing the preflight read back by pdf-lib and by poppler; and
// the preflight naming what a print house would refuse: a low-resolution cover, a font not
// embedded, a missing TrimBox, a spine of the wrong width.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { buildPersonaPdf } from '../../../src/modules/pdf-engine/build-persona-pdf';
import { blurbFitting, printCover } from '../../../src/modules/print-files/print-cover';
import { printInterior, uprightMatrix } from '../../../src/modules/print-files/print-interior';
import { BLEED, coverSize, spineInches, TRIM } from '../../../src/modules/print-files/print-specs';
import { preflight } from '../../../src/modules/print-files/preflight';
import { generateSigningKey } from '../../../src/modules/signing/persona-signature';
import { personaInput } from '../../fixtures/persona-input';

const key = generateSigningKey();
const SEED = path.resolve(__dirname, '../../../../catalogue/seed');
const demo = JSON.parse(readFileSync(path.join(SEED, 'demo-catalogue.json'), 'utf8')) as {
  books: Array<{ key: string; title: string; author: string; description: string; cover: string; content: string[] }>;
};

/** A Persona of a text book, and its two print files, each preflighted. */
async function printFilesOf(book: { title: string; author: string; description: string; content: string[]; cover?: Uint8Array }, copyNo = 37) {
  const input = { ...personaInput(key, { kind: 'text', paragraphs: book.content }, { title: book.title, author: book.author }), copyNo };
  const persona = await buildPersonaPdf({ ...input, ...(book.cover ? { cover: book.cover } : {}) });
  const interior = await printInterior(persona.bytes, { hasCover: book.cover !== undefined, title: book.title });
  const cover = await printCover({
    title: book.title,
    author: book.author,
    blurb: book.description,
    name: 'Zoë Ünal',
    copyNo,
    personaId: input.record.personaId,
    verifyUrl: input.verifyUrl,
    ...(book.cover ? { cover: book.cover } : {}),
    pages: interior.pages,
    paper: 'white',
  });
  const spine = spineInches(interior.pages, 'white');
  const [interiorReport, coverReport] = await Promise.all([
    preflight(interior.bytes, { kind: 'interior' }),
    preflight(cover.bytes, { kind: 'cover', spineInches: spine }),
  ]);
  return { persona, interior, cover, spine, interiorReport, coverReport };
}

const pdfinfoBoxes = (bytes: Uint8Array, page: number) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'print-'));
  try {
    writeFileSync(path.join(dir, 'f.pdf'), bytes);
    return execFileSync('pdfinfo', ['-box', '-f', String(page), '-l', String(page), path.join(dir, 'f.pdf')]).toString();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

describe('print files', () => {
  it.each(demo.books.map((b) => [b.key, b] as const))(
    '%s: an interior and a cover a print house takes',
    async (_key, book) => {
      const cover = new Uint8Array(readFileSync(path.join(SEED, 'covers', book.cover)));
      const made = await printFilesOf({ ...book, cover });
      expect(made.interiorReport.problems).toEqual([]);
      expect(made.coverReport.problems).toEqual([]);
      // Every page of the Persona but its cover, and a blank one when the count is odd.
      expect(made.interior.pages).toBe(made.persona.pages - 1 + ((made.persona.pages - 1) % 2));
      expect(made.coverReport.minPpi).toBeGreaterThanOrEqual(300);
      // Seen as poppler sees it: the trim inside the bleed, 9 pt (0.125 in) on every side.
      expect(pdfinfoBoxes(made.interior.bytes, 2)).toMatch(
        new RegExp(`Page\\s+2 TrimBox:\\s+9\\.00\\s+9\\.00\\s+${(TRIM.width + BLEED).toFixed(2)}\\s+${(TRIM.height + BLEED).toFixed(2)}`),
      );
      const spread = coverSize(made.interior.pages, 'white');
      expect(Math.abs(made.cover.spine / 72 - made.spine)).toBeLessThanOrEqual(0.0625);
      expect(pdfinfoBoxes(made.cover.bytes, 1)).toMatch(
        new RegExp(`Page\\s+1 BleedBox:\\s+0\\.00\\s+0\\.00\\s+${spread.width.toFixed(2)}\\s+${spread.height.toFixed(2)}`),
      );
    },
    60_000,
  );

  it('makes a 300-page book print-ready: its spine carries the title, within 1/16 in of the formula', async () => {
    const chapter = demo.books[0]!.content;
    const paragraphs: string[] = [];
    for (let i = 1; paragraphs.length < 2600; i += 1) paragraphs.push(`# Chapter ${i}`, ...chapter.filter((p) => !p.startsWith('#')));
    const { title, author, description } = demo.books[0]!;
    const made = await printFilesOf({ title, author, description, content: paragraphs });
    expect(made.interior.pages).toBeGreaterThanOrEqual(300);
    expect(made.interiorReport.problems).toEqual([]);
    expect(made.coverReport.problems).toEqual([]);
    expect(made.spine).toBeCloseTo(made.interior.pages * 0.002252, 6);
    // The spine's text: the title and the author, read back by poppler.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'print-'));
    try {
      writeFileSync(path.join(dir, 'cover.pdf'), made.cover.bytes);
      const text = execFileSync('pdftotext', [path.join(dir, 'cover.pdf'), '-'])
        .toString()
        .replace(/\s+/g, ' ');
      expect(text).toContain(demo.books[0]!.title);
      expect(text).toContain('Copy No. 37 of the Personas of this book');
      expect(text).toContain('Personalised for Zoë Ünal');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('names what a print house would refuse: a cover image under 300 ppi, a font not embedded, a page without its boxes, a spine of the wrong width', async () => {
    const small = new Uint8Array(
      await sharp({ create: { width: 600, height: 900, channels: 3, background: '#335' } })
        .jpeg()
        .toBuffer(),
    );
    const { title, author, description, content } = demo.books[1]!;
    const made = await printFilesOf({ title, author, description, content, cover: small });
    expect(made.coverReport.problems).toEqual([expect.stringMatching(/^an image on page 1 \(600 × 900 px\) prints at 10\d ppi: 300 are needed$/)]);
    const wrongSpine = await preflight(made.cover.bytes, { kind: 'cover', spineInches: made.spine + 0.1 });
    expect(wrongSpine.problems.join('\n')).toMatch(/the spine is [\d.]+ in, not [\d.]+ in/);

    // An uploaded book set in Helvetica, not embedded: its interior says so.
    const upload = await PDFDocument.create();
    const helvetica = await upload.embedFont(StandardFonts.Helvetica);
    for (let i = 0; i < 3; i += 1) upload.addPage([420, 595]).drawText(`Page ${i + 1}`, { x: 50, y: 500, font: helvetica });
    const persona = await buildPersonaPdf({ ...personaInput(key, { kind: 'pdf', bytes: await upload.save() }), copyNo: 1 });
    const interior = await printInterior(persona.bytes, { hasCover: false, title: 'Uploaded' });
    const report = await preflight(interior.bytes, { kind: 'interior' });
    expect(report.problems).toContain('the font Helvetica (page 1) is not embedded');
    expect(report.problems).toContain('pdffonts: the font Helvetica is not embedded');

    const bare = await PDFDocument.create();
    bare.addPage([420, 595]);
    bare.addPage([420, 595]);
    expect((await preflight(await bare.save(), { kind: 'interior' })).problems).toEqual(['page 1 has no TrimBox', 'page 2 has no TrimBox']);
  }, 60_000);

  it('puts a page of another size or turned upright, scaled to the trim and centred', () => {
    // A Letter page shown turned a quarter (landscape): its top-left corner lands top-left of the trim's fitted area.
    const letter = { x: 0, y: 0, width: 612, height: 792 };
    const [a, b, c, d, e, f] = uprightMatrix(letter, 90);
    const at = (x: number, y: number) => [a * x + c * y + e, b * x + d * y + f];
    const s = Math.min(TRIM.width / 792, TRIM.height / 612);
    const top = BLEED + (TRIM.height + 612 * s) / 2;
    // Shown turned clockwise, the page's bottom-left corner is the top-left one.
    expect(at(0, 0).map((n) => +n.toFixed(3))).toEqual([+BLEED.toFixed(3), +top.toFixed(3)]);
    expect(uprightMatrix({ x: 0, y: 0, width: TRIM.width, height: TRIM.height }, 0)).toEqual([1, 0, 0, 1, BLEED, BLEED]);
    void degrees;
  });

  it('keeps the blurb whole when it fits, else to its last sentence that does', () => {
    const width = (text: string) => text.length;
    expect(blurbFitting('One. Two.', 20, 2, width)).toEqual(['One. Two.']);
    expect(blurbFitting('First sentence here. Second one is long enough to wrap twice over.', 22, 1, width)).toEqual(['First sentence here.']);
    expect(blurbFitting('A long sentence with no end that runs on and on', 10, 2, width)).toEqual(['A long', 'sentence…']);
  });
});
