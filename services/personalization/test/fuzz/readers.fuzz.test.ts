// Fuzzing the personalisation service's readers of untrusted bytes (issue 21): the PDF reader
// that opens a book's PDF through its cross-reference sections (PdfSource, readBase: also a
// Persona's own incremental update), what a copy sent to be verified is inspected by, the leak
// mark's readers (an EPUB's text, a PDF's pages drawn by pdf.js, the rows of dots in pixels).
// Mutations of real files and bytes from nothing (@persona/test-kit's mutatedBytes): each may
// be read or refused with the reader's own errors, never anything else, within its budget and
// quickly. fast-check prints the seed and the shrunk input of any failure.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { fuzzRuns, mutatedBytes, plainEpub, plainPdf } from '@persona/test-kit';
import { BudgetMeter, DOCUMENT_BUDGET, type FileBudget, FileRefusedError, OVERSHOOT_BYTES, servicePool } from '@persona/untrusted';
import type { CopyTasks } from '../../src/modules/copy-checks/copy-tasks';
import { inspectCopy } from '../../src/modules/copy-checks/inspect-copy';
import { buildPersonaEpub } from '../../src/modules/epub/build-persona-epub';
import { copyFormat } from '../../src/modules/leak-mark/copy-format';
import { framesInText } from '../../src/modules/leak-mark/epub-mark';
import { findDots, framesOfDots, readMark } from '../../src/modules/leak-mark/read-mark';
import { buildPersonaPdf, UnreadableSourceError } from '../../src/modules/pdf-engine/build-persona-pdf';
import { BrokenXrefError, PdfSource } from '../../src/modules/pdf-engine/pdf-source';
import { readBase } from '../../src/modules/pdf-engine/prepare-base';
import { generateSigningKey, signPersona } from '../../src/modules/signing/persona-signature';
import { leakMark, markSecret } from '../../src/modules/leak-mark/mark-code';
import { personaInput, TEST_RECORD } from '../fixtures/persona-input';

const RUNS = fuzzRuns(300);
const SLOW_MS = 5000;
const SMALL: FileBudget = { ...DOCUMENT_BUDGET, streamBytes: 8 * 1024 * 1024, totalBytes: 16 * 1024 * 1024 };
/** Errors pdf.js reports a file it cannot read with (the leak route answers them 400). */
const PDFJS_ERRORS = new Set(['InvalidPDFException', 'FormatError', 'PasswordException', 'UnknownErrorException', 'ResponseException', 'AbortException']);

function allowed(err: unknown, names: ReadonlySet<string> = new Set()): boolean {
  return err instanceof FileRefusedError || err instanceof BrokenXrefError || err instanceof UnreadableSourceError || names.has((err as Error)?.name);
}

let book: Uint8Array;
let persona: Uint8Array;
let epub: Uint8Array;
beforeAll(async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  for (let i = 0; i < 4; i += 1) doc.addPage([420, 595]).drawText(`Chapter ${i + 1}: light on water`, { x: 40, y: 500, size: 12, font });
  book = await doc.save({ useObjectStreams: true });
  const key = generateSigningKey();
  // A Persona of a publisher's PDF: the book and the incremental update appended to it.
  persona = (await buildPersonaPdf(personaInput(key, { kind: 'pdf', bytes: book }))).bytes;
  const record = { ...TEST_RECORD };
  epub = await buildPersonaEpub({
    record,
    signature: signPersona(record, key),
    keyId: key.keyId,
    privateKey: key.privateKey,
    verifyUrl: `https://shop.example/verify/${record.personaId}`,
    paragraphs: ['# One', 'It was night. The sea, the light, and Meera.', '# Two', 'Morning came.'],
    language: 'English',
    mark: leakMark(markSecret(key.privateKey), record.personaId),
  });
}, 60_000);

describe('fuzzing the personalisation service’s readers', () => {
  it('the PDF reader and the incremental-update sections it reads (PdfSource, readBase)', () => {
    fc.assert(
      fc.property(mutatedBytes([book, persona, plainPdf()]), (bytes) => {
        const meter = new BudgetMeter(SMALL, "The book's PDF");
        const started = performance.now();
        try {
          const source = new PdfSource(bytes, meter);
          source.validate();
          for (const num of [...source.entries.keys()].slice(0, 50)) source.object(num);
          readBase(new Uint8Array(bytes), meter);
        } catch (err) {
          if (!allowed(err)) throw err;
        }
        expect(meter.producedBytes).toBeLessThanOrEqual(SMALL.totalBytes + OVERSHOOT_BYTES);
        expect(performance.now() - started).toBeLessThan(SLOW_MS);
      }),
      { numRuns: RUNS },
    );
  });

  it('what a copy sent to be verified is inspected by (PDF and EPUB)', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedBytes([persona, epub, plainPdf(), plainEpub()], { fromNothing: 0 }), async (bytes) => {
        if (!copyFormat(bytes)) return; // the route answers 415 before any reading
        const started = performance.now();
        try {
          await inspectCopy(bytes, SMALL);
        } catch (err) {
          if (!allowed(err)) throw err;
        }
        expect(performance.now() - started).toBeLessThan(SLOW_MS);
      }),
      { numRuns: RUNS },
    );
  });

  it('the leak mark’s EPUB reader and its reading of text', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedBytes([epub, plainEpub()], { fromNothing: 0 }), async (bytes) => {
        if (copyFormat(bytes) !== 'epub') return;
        try {
          await readMark(bytes, SMALL);
        } catch (err) {
          if (!allowed(err)) throw err;
        }
      }),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '.', ',', '\u2060', '\u200b', '\u200c', 'क', '\n'), maxLength: 2000 }), (text) => {
        for (const frame of framesInText(text)) expect(frame.every((bit) => bit === 0 || bit === 1)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('the leak mark’s PDF reader (pdf.js draws the pages, on the untrusted-file thread the service runs it on) and the search for dots in pixels', async () => {
    // On the service's own thread (copy-tasks.ts, built): pdf.js leaves some promises of its own
    // unhandled on a broken page tree (untrusted-worker.ts says which), which only a thread of the
    // pool is made to stand; the answer that counts is the task's.
    const pool = servicePool<CopyTasks>(require.resolve('../../src/modules/copy-checks/copy-tasks'));
    const dir = await mkdtemp(path.join(os.tmpdir(), 'leak-fuzz-'));
    try {
      let n = 0;
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(mutatedBytes([persona], { fromNothing: 0, maxEdits: 3 }), async (bytes) => {
          if (copyFormat(bytes) !== 'pdf') return;
          const file = path.join(dir, `copy-${(n += 1)}.pdf`);
          await writeFile(file, bytes);
          try {
            await pool.run('readMark', file, { file: 'the copy' });
          } catch (err) {
            if (!allowed(err, PDFJS_ERRORS)) throw err;
            if (err instanceof FileRefusedError) refused += 1;
          }
        }),
        { numRuns: Math.max(10, Math.round(RUNS / 10)) },
      );
      // No thread died under a copy: the pool replaces only those it retired after a refusal.
      expect(pool.stats().replaced).toBeLessThanOrEqual(refused);
    } finally {
      await pool.close();
      await rm(dir, { recursive: true, force: true });
    }
    // The thread's own reader, in this thread, on the copy as made.
    await expect(readMark(persona, SMALL)).resolves.toMatchObject({ format: 'pdf', mark: expect.any(Number) });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 1, max: 16 }),
        fc.uint8Array({ minLength: 4096, maxLength: 4096 }),
        (width, height, noise) => {
          const rgba = new Uint8ClampedArray(width * height * 4);
          for (let i = 0; i < rgba.length; i += 1) rgba[i] = noise[i % noise.length]!;
          framesOfDots(findDots(rgba, width, height));
        },
      ),
      { numRuns: RUNS },
    );
  }, 120_000);
});
