// The PDF gauge: every stream found however the file points at it and decoded through its
// filters while counted, pages and objects counted in object streams too, pictures measured
// in pixels (a JPEG by its own header), encryption refused; a real book passes untouched.
import { deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { encryptedPdf, giantImagePdf, lzwZeros, pdfOf, plainPdf, zlibSpaces } from '@persona/test-kit';
import { BudgetMeter, DOCUMENT_BUDGET, type FileBudget } from '../src/budget';
import { gaugePdf } from '../src/pdf-gauge';
import { lzwDecode } from '../src/stream-filters';

const meter = (over: Partial<FileBudget> = {}) => new BudgetMeter({ ...DOCUMENT_BUDGET, ...over }, 'This PDF');
const MB = 1024 * 1024;
const PAGE = [
  { body: '<< /Type /Catalog /Pages 2 0 R >>' },
  { body: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
  { body: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] /Contents 4 0 R >>' },
];

async function book(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  for (let i = 0; i < pages; i += 1)
    doc.addPage([420, 595]).drawText(`Page ${i + 1} of a quiet book about light and water.`, { x: 40, y: 500, size: 11, font });
  return doc.save({ useObjectStreams: true });
}

describe('gaugePdf', () => {
  it('passes a real book made by pdf-lib (object streams, a cross-reference stream), counting its pages and objects', async () => {
    const measure = gaugePdf(await book(40), meter());
    expect(measure.pages).toBe(40);
    expect(measure.objects).toBeGreaterThan(80);
    expect(measure.producedBytes).toBeGreaterThan(0);
  });

  it('counts every byte a stream inflates to, each stream and all of them', () => {
    const pdf = pdfOf([
      ...PAGE,
      { body: '<< /Filter /FlateDecode >>', stream: zlibSpaces(3 * MB) },
      { body: '<< /Filter /FlateDecode >>', stream: zlibSpaces(3 * MB) },
    ]);
    expect(gaugePdf(pdf, meter()).producedBytes).toBe(6 * MB);
    expect(() => gaugePdf(pdf, meter({ streamBytes: 2 * MB }))).toThrow(expect.objectContaining({ statusCode: 413, code: 'UNPACKS_TOO_LARGE' }));
    expect(() => gaugePdf(pdf, meter({ totalBytes: 5 * MB }))).toThrow('This PDF would have more than 5 MB in all once unpacked, more than this shop reads');
  });

  it('finds a stream whose /Length is a reference or a lie by its endstream', () => {
    const data = zlibSpaces(MB);
    const pdf = pdfOf([
      ...PAGE,
      { raw: Buffer.concat([Buffer.from('4 0 obj\n<< /Filter /FlateDecode /Length 9 0 R >>\nstream\n'), data, Buffer.from('\nendstream\nendobj\n')]) },
      { raw: Buffer.concat([Buffer.from('5 0 obj\n<< /Filter /FlateDecode /Length 3 >>\nstream\n'), data, Buffer.from('\nendstream\nendobj\n')]) },
      { raw: Buffer.from(`9 0 obj\n${data.length}\nendobj\n`) },
    ]);
    expect(gaugePdf(pdf, meter()).producedBytes).toBe(2 * MB);
  });

  it('follows a filter named by reference and a chain of filters', () => {
    const a85 = (bytes: Buffer) => {
      let out = '';
      for (let i = 0; i < bytes.length; i += 4) {
        const chunk = Buffer.concat([bytes.subarray(i, i + 4), Buffer.alloc(4)]).subarray(0, 4);
        let value = chunk.readUInt32BE(0);
        const digits: string[] = [];
        for (let d = 0; d < 5; d += 1) {
          digits.unshift(String.fromCharCode(33 + (value % 85)));
          value = Math.floor(value / 85);
        }
        out += digits.join('').slice(0, Math.min(4, bytes.length - i) + 1);
      }
      return Buffer.from(`${out}~>`);
    };
    const pdf = pdfOf([
      ...PAGE,
      { body: '<< /Filter [/ASCII85Decode /FlateDecode] >>', stream: a85(zlibSpaces(MB)) },
      { body: '<< /Filter 6 0 R >>', stream: zlibSpaces(MB) },
      { body: '/FlateDecode' },
    ]);
    expect(gaugePdf(pdf, meter()).producedBytes).toBeGreaterThanOrEqual(2 * MB);
  });

  it('decodes LZW exactly, and counts what it produces', () => {
    const data = lzwZeros(5 * MB);
    const decoded = lzwDecode(data, meter(), { keep: true });
    expect(decoded.produced).toBe(5 * MB);
    expect(decoded.data.every((b) => b === 0)).toBe(true);
    const pdf = pdfOf([...PAGE, { body: '<< /Filter /LZWDecode >>', stream: data }]);
    expect(() => gaugePdf(pdf, meter({ streamBytes: 4 * MB }))).toThrow(expect.objectContaining({ code: 'UNPACKS_TOO_LARGE' }));
  });

  it('counts the pages and objects inside object streams, not what their dictionaries declare', () => {
    const objects = Array.from({ length: 30 }, () => '<< /Type /Page /Parent 2 0 R >>').join('\n');
    const header = Array.from({ length: 30 }, (_, i) => `${i + 10} 0`).join(' ');
    const pdf = pdfOf([
      ...PAGE,
      { body: '<< >>', stream: Buffer.from('') },
      { body: `<< /Type /ObjStm /N 1 /First ${header.length + 1} /Filter /FlateDecode >>`, stream: deflateSync(`${header}\n${objects}`) },
    ]);
    const measure = gaugePdf(pdf, meter());
    expect(measure.pages).toBe(31);
    expect(measure.objects).toBe(5 + 30);
    expect(() => gaugePdf(pdf, meter({ pages: 20 }))).toThrow('This PDF would have more than 20 pages, more than this shop reads');
  });

  it('measures pictures in pixels without inflating them', () => {
    expect(() => gaugePdf(giantImagePdf(30_000, 10), meter())).toThrow(expect.objectContaining({ code: 'IMAGE_TOO_LARGE' }));
    expect(() => gaugePdf(giantImagePdf(10_000, 10_000), meter())).toThrow(
      'This PDF would have more than 40 million pixels in one picture, more than this shop reads',
    );
    expect(gaugePdf(giantImagePdf(1000, 1000), meter())).toMatchObject({ images: 1, producedBytes: 0 });
  });

  it('refuses an encrypted file, however its /Encrypt is spelled', () => {
    expect(() => gaugePdf(encryptedPdf(), meter())).toThrow(expect.objectContaining({ statusCode: 422, code: 'ENCRYPTED_PDF' }));
  });

  it('refuses nesting past its depth, and what is not a PDF', () => {
    const nested = (depth: number) => pdfOf([...PAGE, { body: '<< >>', stream: Buffer.from('') }, { body: `${'['.repeat(depth)}${']'.repeat(depth)}` }]);
    expect(gaugePdf(nested(60), meter())).toMatchObject({ pages: 1 });
    expect(() => gaugePdf(nested(65), meter())).toThrow('This PDF would have more than 64 levels of nesting, more than this shop reads');
    expect(() => gaugePdf(Buffer.from('GIF89a'), meter())).toThrow('This PDF cannot be read: it is not a PDF');
    expect(gaugePdf(plainPdf(), meter())).toMatchObject({ pages: 1, streams: 1 });
  });
});
