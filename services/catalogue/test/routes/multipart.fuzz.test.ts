// Fuzzing the book form's multipart bodies (issue 21): a real form (fields, a cover, a PDF)
// damaged byte by byte (boundaries, part headers, lengths), parts repeated or dropped, and bytes
// from nothing under a multipart content type. Each is answered 201 or a 4xx in the error shape,
// never a 5xx, quickly; whatever is refused writes no book, file or event.
import fc from 'fast-check';
import { fuzzRuns, mutatedBytes, plainPdf } from '@persona/test-kit';
import { multipart, outboxTypes, PNG_1PX, startHarness, storedFiles, type Harness } from '../support';

const RUNS = fuzzRuns(150);

describe('fuzzing the book form', () => {
  let h: Harness;
  let seeds: Buffer[];
  let contentType: string;
  beforeAll(async () => {
    h = await startHarness('pglite', { uploadChecks: { threads: 1, heapMb: 128, timeoutMs: 5000, maxQueue: 64 } });
    const category = (await h.app.inject({ method: 'POST', url: '/api/categories', payload: { name: 'Novels' }, headers: h.auth })).json().data._id as string;
    const form = await multipart([
      ['title', 'The Lighthouse Keeper'],
      ['author', 'Meera Iyer'],
      ['description', 'A quiet novel.'],
      ['category', category],
      ['price', '349.5'],
      ['tags', '["Fiction","Sea"]'],
      ['coverImage', { bytes: PNG_1PX, filename: 'cover.png', type: 'image/png' }],
      ['fullPdf', { bytes: plainPdf(), filename: 'book.pdf', type: 'application/pdf' }],
    ]);
    contentType = form.headers['content-type']!;
    const boundary = contentType.split('boundary=')[1]!;
    const parts = form.payload.toString('latin1').split(`--${boundary}`);
    // The same form with a part repeated, and with the closing boundary gone.
    seeds = [
      form.payload,
      Buffer.from([...parts.slice(0, 3), parts[2], ...parts.slice(3)].join(`--${boundary}`), 'latin1'),
      form.payload.subarray(0, form.payload.length - 40),
    ];
  }, 60_000);
  afterAll(() => h.close());

  it('answers every damaged form with 201 or a 4xx, and a refused one writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedBytes(seeds), async (payload) => {
        const before = { files: (await storedFiles(h.filesDir)).length, events: (await outboxTypes(h.database)).length };
        const started = performance.now();
        const res = await h.app.inject({ method: 'POST', url: '/api/books', payload, headers: { ...h.auth, 'content-type': contentType } });
        expect(res.statusCode === 201 || (res.statusCode >= 400 && res.statusCode < 500)).toBe(true);
        expect(performance.now() - started).toBeLessThan(5000);
        if (res.statusCode !== 201) {
          expect(res.json()).toMatchObject({ statusCode: res.statusCode, message: expect.any(String) });
          expect({ files: (await storedFiles(h.filesDir)).length, events: (await outboxTypes(h.database)).length }).toEqual(before);
        }
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});
