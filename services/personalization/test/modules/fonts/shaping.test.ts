// Every script prints correctly (issue 13): names and messages in Devanagari, Bengali, Tamil,
// Arabic and accented Latin are shaped by harfbuzz with the fonts we ship. Read back from the PDF
// itself: the glyphs drawn are exactly those harfbuzz chose (compared by outline, through the
// subset font file and the CID-to-glyph map), text extraction gives the text as typed, and the
// same input gives the same bytes.
import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, decodePDFRawStream, type PDFObject, type PDFRawStream } from 'pdf-lib';
import { extractPageTexts } from '@persona/test-kit';
import { loadFaceBytes, type FaceName } from '../../../src/modules/fonts/faces';
import { PersonaFonts } from '../../../src/modules/fonts/persona-fonts';
import { loadShaper, shapeRun } from '../../../src/modules/fonts/shaping';
import { splitRuns } from '../../../src/modules/fonts/text-runs';

const SAMPLES: Array<[string, string]> = [
  ['Devanagari', 'क्षत्रिय अनन्या शर्मा'],
  ['Devanagari message', 'जन्मदिन मुबारक हो, प्रिय!'],
  ['Bengali', 'অনন্যা শুভ জন্মদিন'],
  ['Tamil', 'தமிழ்செல்வி கொண்டாட்டம்'],
  ['Arabic', 'مريم الحسن'],
  ['accented Latin', 'Zoë Ünal, Ñandú, n̈ and é'],
];

async function onePage(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fonts = await PersonaFonts.embed(doc);
  const page = doc.addPage([420, 200]);
  fonts.drawLines(page, [{ text, x: 20, y: 100, size: 14, style: 'serif' }]);
  fonts.finish(doc);
  return doc.save({ useObjectStreams: false });
}

function bytesOf(doc: PDFDocument, object: PDFObject | undefined): Uint8Array {
  const resolved = object instanceof PDFRef ? doc.context.lookup(object) : object;
  if (resolved instanceof PDFArray) return Buffer.concat(resolved.asArray().map((item) => bytesOf(doc, item)));
  return decodePDFRawStream(resolved as PDFRawStream).decode();
}

/** The outlines of the glyphs a page draws visibly, per font resource, read from the PDF alone. */
async function drawnOutlines(pdf: Uint8Array): Promise<string[]> {
  const hb = await import('harfbuzzjs');
  const doc = await PDFDocument.load(pdf);
  const page = doc.getPage(0);
  const content = Buffer.from(bytesOf(doc, page.node.get(PDFName.of('Contents')))).toString('latin1');
  const fonts = page.node.Resources()!.lookup(PDFName.of('Font'), PDFDict);
  const outlines: string[] = [];
  let face: { font: InstanceType<typeof hb.Font>; cidToGid: (cid: number) => number } | null = null;
  let invisible = false;
  for (const token of content.matchAll(/\/([\w-]+) [\d.]+ Tf|(\d) Tr|<([0-9a-f]+)>/g)) {
    if (token[1]) {
      const type0 = fonts.lookup(PDFName.of(token[1]), PDFDict);
      const cidFont = type0.lookup(PDFName.of('DescendantFonts'), PDFArray).lookup(0, PDFDict);
      const descriptor = cidFont.lookup(PDFName.of('FontDescriptor'), PDFDict);
      const file = bytesOf(doc, descriptor.get(PDFName.of('FontFile2')));
      const map = cidFont.get(PDFName.of('CIDToGIDMap'));
      const table = map instanceof PDFName ? null : bytesOf(doc, map);
      face = {
        font: new hb.Font(new hb.Face(new hb.Blob(file))),
        cidToGid: (cid) => (table ? (table[cid * 2]! << 8) | table[cid * 2 + 1]! : cid),
      };
    } else if (token[2]) {
      invisible = token[2] === '3';
    } else if (token[3] && face && !invisible) {
      for (let i = 0; i < token[3].length; i += 4) outlines.push(face.font.glyphToPath(face.cidToGid(parseInt(token[3].slice(i, i + 4), 16))));
    }
  }
  return outlines;
}

/** The outlines of the glyphs harfbuzz chooses for the text, run by run, with the original font files. */
async function shapedOutlines(text: string): Promise<string[]> {
  const hb = await import('harfbuzzjs');
  await loadShaper();
  const fonts = new Map<FaceName, InstanceType<typeof hb.Font>>();
  const outlines: string[] = [];
  for (const run of splitRuns(text, 'serif')) {
    let font = fonts.get(run.face);
    if (!font) {
      font = new hb.Font(new hb.Face(new hb.Blob(loadFaceBytes(run.face))));
      fonts.set(run.face, font);
    }
    for (const glyph of shapeRun(run.face, run.text)) outlines.push(font.glyphToPath(glyph.glyph));
  }
  return outlines;
}

describe('every script, shaped by harfbuzz', () => {
  it.each(SAMPLES)('%s: the glyphs drawn are the ones harfbuzz chose, and extraction gives the text back', async (_script, text) => {
    const pdf = await onePage(text);
    const drawn = await drawnOutlines(pdf);
    const shaped = await shapedOutlines(text);
    // Order aside (a mark is drawn after its run), the same glyphs that paint, each once (the empty
    // glyphs aside: spaces, and the anchors and mark carriers of the text layer, which paint nothing).
    const inked = (outlines: string[]) => outlines.filter(Boolean).sort();
    expect(inked(drawn)).toEqual(inked(shaped));
    const [page] = await extractPageTexts(pdf);
    expect(page!.trim()).toBe(text.normalize('NFC'));
    // Reproducible to the byte.
    const again = await onePage(text);
    expect(createHash('sha256').update(again).digest('hex')).toBe(createHash('sha256').update(pdf).digest('hex'));
  });

  it('sets conjuncts and reordered vowel signs (fewer glyphs than letters), and joins Arabic right to left', async () => {
    await loadShaper();
    const kshatriya = shapeRun('devanagari', 'क्षत्रिय');
    expect(kshatriya.length).toBeLessThan([...'क्षत्रिय'].length);
    // The vowel sign of "त्रि" is drawn before its consonants, yet stands for them in logical order.
    expect(kshatriya.map((g) => g.text).join('')).toBe('क्षत्रिय');
    const maryam = shapeRun('arabic', 'مريم');
    // Drawn right to left: the first glyph drawn is the last letter (its cluster is the last).
    expect(maryam[0]!.text).toBe('م');
    expect(new Set(maryam.map((g) => g.glyph)).size).toBeGreaterThan(1);
  });
});
