// Issue 21 on the catalogue alone: an administrator's uploads (covers, pictures, sample and
// full PDFs) are judged on the untrusted-file threads within their budgets. Every bomb of the
// corpus gets its 413 or 422 naming the limit and nothing is written (no book, no file, no
// event); finding 4 (a 102 KB full PDF inflating to 100 MB, which stalled the shop for seconds
// while its pages were counted) is refused while the event loop keeps answering; a reading past
// the time limit or heap cap is refused and the next upload served.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { giantPng, HOSTILE_FILES, type HostileFile, manyObjectsPdf, objectStreamBombPdf } from '@persona/test-kit';
import { multipart, outboxTypes, PNG_1PX, startHarness, storedFiles, tinyPdf, type FormValue, type Harness } from '../support';

const MB = 1024 * 1024;

async function setUp(harness: Harness) {
  const category = (await harness.app.inject({ method: 'POST', url: '/api/categories', payload: { name: 'Novels' }, headers: harness.auth })).json().data
    ._id as string;
  const post = async (files: Array<[string, FormValue]>) => {
    const body = await multipart([
      ['title', 'The Lighthouse Keeper'],
      ['author', 'Meera Iyer'],
      ['description', 'A quiet novel about light and distance.'],
      ['category', category],
      ['price', '349.5'],
      ...files,
    ]);
    return harness.app.inject({ method: 'POST', url: '/api/books', payload: body.payload, headers: { ...harness.auth, ...body.headers } });
  };
  const written = async () => ({
    books: (await harness.app.inject({ url: '/api/books' })).json().meta.total as number,
    files: await storedFiles(harness.filesDir),
    events: (await outboxTypes(harness.database)).length,
  });
  return { post, written };
}

describe('uploads that are bombs, sent to the catalogue', () => {
  let h: Harness;
  let post: Awaited<ReturnType<typeof setUp>>['post'];
  let written: Awaited<ReturnType<typeof setUp>>['written'];
  beforeAll(async () => {
    h = await startHarness('pglite', { uploadChecks: { threads: 1, heapMb: 128, timeoutMs: 10_000, maxQueue: 16 } });
    ({ post, written } = await setUp(h));
  }, 60_000);
  afterAll(() => h.close());

  type Field = 'coverImage' | 'images' | 'fullPdf' | 'samplePdf';
  const fieldsFor = (kind: HostileFile['kind']): Field[] => (kind === 'image' ? ['coverImage', 'images'] : kind === 'pdf' ? ['fullPdf', 'samplePdf'] : []);
  const cases = HOSTILE_FILES.flatMap((file) => fieldsFor(file.kind).map((field): [string, Field, HostileFile] => [file.name, field, file]));

  it.each(cases)('%s as %s gets its refusal and writes nothing', async (_name, field, file) => {
    const before = await written();
    const bytes = file.make();
    if (bytes.length > 10 * MB) return; // over the upload limit: the size check refuses it (its own test)
    const res = await post([[field, { bytes, filename: file.name, type: 'application/octet-stream' }]]);
    if (file.refusal === null) {
      expect(res.statusCode).toBe(201);
      return;
    }
    expect([413, 422]).toContain(res.statusCode);
    expect(res.json().code).toBe(file.refusal);
    const label = { coverImage: 'The cover image', images: 'An image', fullPdf: 'The full PDF', samplePdf: 'The sample PDF' }[field];
    expect(res.json().message).toMatch(new RegExp(`^${label} `));
    expect(await written()).toEqual(before);
  });

  it('refuses finding 4 (a 102 KB full PDF inflating to 100 MB) while the event loop keeps answering', async () => {
    const bomb = objectStreamBombPdf(100 * MB);
    expect(bomb.length).toBeLessThan(120 * 1024);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    let done = false;
    const refused = post([['fullPdf', { bytes: bomb, filename: 'book.pdf', type: 'application/pdf' }]]).finally(() => (done = true));
    const answers: number[] = [];
    while (!done) {
      const t = performance.now();
      expect((await h.app.inject({ url: '/api/categories' })).statusCode).toBe(200);
      answers.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 15));
    }
    const ms = performance.now() - started;
    delay.disable();
    const res = await refused;
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      code: 'UNPACKS_TOO_LARGE',
      message: 'The full PDF would have more than 64 MB in one of its parts once unpacked, more than this shop reads',
    });
    expect(ms).toBeGreaterThan(200);
    expect(Math.max(...answers)).toBeLessThan(ms / 2);
    expect(delay.max / 1e6).toBeLessThan(ms / 2);
  }, 30_000);

  it('leaves no spooled upload behind when a form is refused after its files arrived', async () => {
    const before = await written();
    const png = { bytes: PNG_1PX, filename: 'p.png', type: 'image/png' };
    const tooMany = await post(Array.from({ length: 9 }, (): [string, FormValue] => ['images', png]));
    expect(tooMany.statusCode).toBe(400);
    const badField = await post([
      ['coverImage', png],
      ['price', 'free'],
    ]);
    expect(badField.statusCode).toBe(400);
    const twice = await post([
      ['coverImage', png],
      ['coverImage', png],
    ]);
    expect(twice.statusCode).toBe(400);
    const badCover = await post([['coverImage', { bytes: Buffer.from('GIF89a<script>x</script>;'), filename: 'x.gif', type: 'image/gif' }]]);
    expect(badCover.statusCode).toBe(415);
    expect(await written()).toEqual(before);
  });

  it('answers a damaged multipart body 400 and writes nothing', async () => {
    const before = await written();
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/books',
      payload: Buffer.from('------x\r\nContent-Disposition: form-data; name="title"\r\n\r\nNo end'),
      headers: { ...h.auth, 'content-type': 'multipart/form-data; boundary=----x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BAD_MULTIPART', message: expect.stringMatching(/^The multipart body is damaged: /) });
    expect(await written()).toEqual(before);
  });

  it('still takes an honest book with a cover, pictures and both PDFs, counting the full PDF’s pages', async () => {
    const res = await post([
      ['coverImage', { bytes: PNG_1PX, filename: 'cover.png', type: 'image/png' }],
      ['images', { bytes: giantPng(800, 600), filename: 'inside.png', type: 'image/png' }],
      ['samplePdf', { bytes: tinyPdf('sample', 2), filename: 'sample.pdf', type: 'application/pdf' }],
      ['fullPdf', { bytes: tinyPdf('full', 7), filename: 'full.pdf', type: 'application/pdf' }],
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.pageCount).toBe(7);
  });
});

describe('the catalogue’s untrusted-file threads at their limits', () => {
  let h: Harness;
  let post: Awaited<ReturnType<typeof setUp>>['post'];
  let written: Awaited<ReturnType<typeof setUp>>['written'];
  beforeAll(async () => {
    h = await startHarness('pglite', { uploadChecks: { threads: 1, heapMb: 40, timeoutMs: 400, maxQueue: 4 } });
    ({ post, written } = await setUp(h));
  }, 60_000);
  afterAll(() => h.close());

  it('refuses a full PDF too heavy for the heap cap or the time limit, writes nothing, and takes the next book', async () => {
    const before = await written();
    const res = await post([['fullPdf', { bytes: manyObjectsPdf(80_000), filename: 'heavy.pdf', type: 'application/pdf' }]]);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toMatch(/^(MEMORY_LIMIT|TIME_LIMIT)$/);
    expect(res.json().message).toMatch(/^The full PDF (needs more than 40 MB of memory|took longer than 0.4 s) to read, more than this shop gives one file$/);
    expect(await written()).toEqual(before);
    // The next book is taken. On a busy machine a 0.4 s limit may catch even a small file (refused
    // at a limit, nothing written), so it is sent again, as its sender would, a few times at most.
    const sendNext = () => post([['fullPdf', { bytes: tinyPdf('next', 3), filename: 'next.pdf', type: 'application/pdf' }]]);
    let next = await sendNext();
    const atALimit = () => next.statusCode === 422 && /^(MEMORY_LIMIT|TIME_LIMIT)$/.test(next.json().code);
    for (let tries = 1; tries < 6 && atALimit(); tries += 1) next = await sendNext();
    expect({ status: next.statusCode, code: next.statusCode === 201 ? undefined : next.json().code }).toEqual({ status: 201, code: undefined });
  }, 30_000);
});
