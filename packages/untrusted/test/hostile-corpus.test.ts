// Every known bomb of the corpus (@persona/test-kit's HOSTILE_FILES) through the reader that
// meets it in the shop, at the default budgets: refused with the limit it passes (its code),
// or, for a bomb a bounded reader is immune to, read without unpacking it.
import { crc32 } from 'node:zlib';
import { HOSTILE_FILES, plainEpub, plainPdf, quineEpub } from '@persona/test-kit';
import { OVERSHOOT_BYTES } from '../src/bounded-inflate';
import { BudgetMeter, DOCUMENT_BUDGET, FileRefusedError, IMAGE_BUDGET } from '../src/budget';
import { measureImage, type ImageKind } from '../src/image-size';
import { gaugePdf } from '../src/pdf-gauge';
import { readZip } from '../src/zip-reader';

function imageKind(bytes: Buffer): ImageKind {
  if (bytes[0] === 0x89) return 'png';
  if (bytes[0] === 0xff) return 'jpeg';
  return bytes.toString('latin1', 0, 3) === 'GIF' ? 'gif' : 'webp';
}

function read(kind: 'pdf' | 'epub' | 'image', bytes: Buffer, meter: BudgetMeter): unknown {
  if (kind === 'pdf') return gaugePdf(bytes, meter);
  if (kind === 'epub') return readZip(bytes, meter);
  return measureImage(bytes, imageKind(bytes), meter);
}

describe('the corpus of hostile files', () => {
  it.each(HOSTILE_FILES.map((f) => [f.name, f] as const))('%s is met as it must be', (_name, file) => {
    const bytes = file.make();
    const meter = new BudgetMeter(file.kind === 'image' ? IMAGE_BUDGET : DOCUMENT_BUDGET, 'This file');
    let outcome: unknown;
    try {
      outcome = read(file.kind, bytes, meter);
    } catch (err) {
      outcome = err;
    }
    if (file.refusal === null) {
      expect(outcome).not.toBeInstanceOf(Error);
    } else {
      expect(outcome).toBeInstanceOf(FileRefusedError);
      expect((outcome as FileRefusedError).code).toBe(file.refusal);
      expect((outcome as FileRefusedError).message).toMatch(/^This file /);
    }
    // Whatever happened, no more was unpacked than the budget allows (and the one piece that passed it).
    expect(meter.producedBytes).toBeLessThanOrEqual(DOCUMENT_BUDGET.totalBytes + OVERSHOOT_BYTES);
  });

  it('leaves the ordinary files it differs from alone', () => {
    expect(gaugePdf(plainPdf(), new BudgetMeter(DOCUMENT_BUDGET, 'This PDF'))).toMatchObject({ pages: 1 });
    expect(readZip(plainEpub(), new BudgetMeter(DOCUMENT_BUDGET, 'This EPUB')).map((e) => e.name)).toEqual([
      'mimetype',
      'META-INF/container.xml',
      'OEBPS/content.opf',
      'OEBPS/c1.xhtml',
    ]);
  });

  it('reads the ZIP quine once: its book file is the whole EPUB again (CRC-32 and all), and nothing more is opened', () => {
    const quine = quineEpub();
    const meter = new BudgetMeter(DOCUMENT_BUDGET, 'This EPUB');
    const entries = readZip(quine, meter);
    const inner = entries.find((e) => e.name === 'OEBPS/quine.zip')!;
    expect(inner.data.equals(quine)).toBe(true);
    const record = quine.lastIndexOf(Buffer.from('PK\x01\x02', 'latin1'));
    expect(quine.readUInt32LE(record + 16)).toBe(crc32(quine));
    expect(meter.producedBytes).toBe(quine.length + 20);
  });

  it('never recurses into an archive inside an archive', () => {
    const file = HOSTILE_FILES.find((f) => f.name === 'nested-archives.epub')!;
    const meter = new BudgetMeter(DOCUMENT_BUDGET, 'This EPUB');
    const entries = readZip(file.make(), meter);
    expect(entries.map((e) => e.name)).toContain('OEBPS/archive.zip');
    // The stored inner archive is read as bytes: what was produced is its own size, not its bombs'.
    expect(meter.producedBytes).toBeLessThan(64 * 1024);
  });
});
