// Issue 24: which free sample a book has (the text first, else the sample PDF), the author's
// signature uploaded with the book, and the cover and signature the personalisation service
// reads through /internal, with the source's facts and tag following them; on both databases.
import sharp from 'sharp';
import { createAdminVerifier, type ServiceApp } from '@persona/service-kit';
import { describeWithPostgres, TEST_JWT_SECRET } from '@persona/test-kit';
import { buildApp } from '../../src/app';
import { multipart, PNG_1PX, startHarness, storedFiles, tinyPdf, type FormValue, type Harness } from '../support';

const TOKEN = 'internal-token-internal-token-internal-00';
const token = { 'x-internal-token': TOKEN };

function suite(kind: 'pglite' | 'postgres') {
  let h: Harness;
  let internal: ServiceApp;
  let categoryId: string;

  beforeAll(async () => {
    h = await startHarness(kind);
    internal = await buildApp({ db: h.database.db, storage: h.storage, verifier: createAdminVerifier({ secret: TEST_JWT_SECRET }), internalToken: TOKEN });
    categoryId = (await h.app.inject({ method: 'POST', url: '/api/categories', payload: { name: 'Files' }, headers: h.auth })).json().data._id;
  });
  afterAll(async () => {
    await internal.close();
    await h.close();
  });

  const send = async (method: 'POST' | 'PUT', url: string, fields: Array<[string, FormValue]>) => {
    const body = await multipart(fields);
    return h.app.inject({ method, url, payload: body.payload, headers: { ...h.auth, ...body.headers } });
  };
  const create = (extra: Array<[string, FormValue]>) =>
    send('POST', '/api/books', [
      ['title', 'The Signed Book'],
      ['author', 'Asha Rao'],
      ['description', 'D'],
      ['category', categoryId],
      ['price', '100'],
      ...extra,
    ]);
  const signaturePng = () =>
    sharp({ create: { width: 120, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();

  describe('the free sample a book has', () => {
    it.each([
      ['a text sample', [['sampleContent', 'First line.\nSecond line.']], 'text'],
      ['sample pages', [['sampleContent', JSON.stringify([{ chapter: 'One', content: 'It was night.', isAd: false }])]], 'text'],
      [
        'a text sample and a sample PDF (the text first)',
        [
          ['sampleContent', 'A line.'],
          ['samplePdf', { bytes: tinyPdf('s'), filename: 's.pdf' }],
        ],
        'text',
      ],
      ['only a sample PDF', [['samplePdf', { bytes: tinyPdf('s'), filename: 's.pdf' }]], 'pdf'],
      [
        'blank lines and ad pages only, and a sample PDF',
        [
          [
            'sampleContent',
            JSON.stringify([
              { chapter: 'Ad', content: 'Buy', isAd: true },
              { chapter: 'Two', content: '  ', isAd: false },
            ]),
          ],
          ['samplePdf', { bytes: tinyPdf('s'), filename: 's.pdf' }],
        ],
        'pdf',
      ],
      ['blank lines only', [['sampleContent', '  \n \n']], null],
      ['no sample at all', [], null],
    ] as Array<[string, Array<[string, FormValue]>, 'text' | 'pdf' | null]>)('says so for %s, on the book and in lists', async (_label, extra, sample) => {
      const res = await create(extra);
      expect(res.statusCode).toBe(201);
      const id = res.json().data._id as string;
      expect(res.json().data.sample).toBe(sample);
      expect((await h.app.inject({ url: `/api/books/${id}` })).json().data.sample).toBe(sample);
      const listed = (await h.app.inject({ url: '/api/books?limit=100' })).json().data.find((b: { _id: string }) => b._id === id);
      expect(listed.sample).toBe(sample);
    });
  });

  describe("the author's signature", () => {
    it('is kept with the private files, said to exist, and given only to the personalisation service as PNG', async () => {
      const png = await signaturePng();
      const res = await create([['authorSignature', { bytes: png, filename: 'signature.png', type: 'image/png' }]]);
      expect(res.statusCode).toBe(201);
      const book = res.json().data;
      expect(book.hasAuthorSignature).toBe(true);
      expect(JSON.stringify(book)).not.toContain('private/');
      expect((await storedFiles(h.filesDir)).filter((f) => f.startsWith('private/') && f.endsWith('.png'))).toHaveLength(1);

      const source = await internal.inject({ url: `/internal/books/${book._id}/source`, headers: token });
      expect(source.json().data).toMatchObject({ hasAuthorSignature: true, hasCover: false });
      const signature = await internal.inject({ url: `/internal/books/${book._id}/signature`, headers: token });
      expect(signature.statusCode).toBe(200);
      expect(signature.headers['content-type']).toBe('image/png');
      expect(signature.rawPayload.equals(png)).toBe(true);
      expect((await internal.inject({ url: `/internal/books/${book._id}/signature` })).statusCode).toBe(401);
      // Never through the public routes.
      expect((await h.app.inject({ url: `/internal/books/${book._id}/signature`, headers: token })).statusCode).toBe(404);
    });

    it('answers 404 for a book without one', async () => {
      const id = (await create([])).json().data._id as string;
      expect((await internal.inject({ url: `/internal/books/${id}/source`, headers: token })).json().data.hasAuthorSignature).toBe(false);
      const res = await internal.inject({ url: `/internal/books/${id}/signature`, headers: token });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe("This book has no author's signature");
    });

    it.each([
      [
        'a JPEG',
        async () =>
          sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
            .jpeg()
            .toBuffer(),
        415,
        "The author's signature must be a PNG image (with a transparent background)",
      ],
      ['a PDF', async () => tinyPdf('not a picture'), 415, "The author's signature must be a PNG image (with a transparent background)"],
      [
        'text named .png',
        async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
        415,
        "The author's signature must be a PNG image (with a transparent background)",
      ],
      ['a PNG with a page behind it', async () => Buffer.concat([PNG_1PX, Buffer.from('<script>alert(1)</script>')]), 415, undefined],
      ['a PNG over 1 MB', async () => Buffer.concat([PNG_1PX, Buffer.alloc(1024 * 1024 + 1)]), 413, "The author's signature must be under 1MB"],
    ] as Array<[string, () => Promise<Buffer>, number, string | undefined]>)('refuses %s and writes nothing', async (_label, bytes, status, message) => {
      const before = await storedFiles(h.filesDir);
      const total = (await h.app.inject({ url: '/api/books' })).json().meta.total;
      const res = await create([['authorSignature', { bytes: await bytes(), filename: 'signature.png', type: 'image/png' }]]);
      expect(res.statusCode).toBe(status);
      if (message) expect(res.json().message).toBe(message);
      expect(await storedFiles(h.filesDir)).toEqual(before);
      expect((await h.app.inject({ url: '/api/books' })).json().meta.total).toBe(total);
    });

    it('is replaced by a new upload (the old file removed) and changes the source tag', async () => {
      const id = (await create([['authorSignature', { bytes: await signaturePng(), filename: 's.png' }]])).json().data._id as string;
      const first = await internal.inject({ url: `/internal/books/${id}/source`, headers: token });
      const before = (await storedFiles(h.filesDir)).filter((f) => f.startsWith('private/'));
      const next = await sharp({ create: { width: 200, height: 50, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
        .png()
        .toBuffer();
      expect((await send('PUT', `/api/books/${id}`, [['authorSignature', { bytes: next, filename: 's2.png' }]])).statusCode).toBe(200);
      const after = (await storedFiles(h.filesDir)).filter((f) => f.startsWith('private/'));
      expect(after).toHaveLength(before.length);
      expect(after).not.toEqual(before);
      const again = await internal.inject({ url: `/internal/books/${id}/source`, headers: { ...token, 'if-none-match': first.headers.etag as string } });
      expect(again.statusCode).toBe(200);
      expect(again.headers.etag).not.toBe(first.headers.etag);
      expect((await internal.inject({ url: `/internal/books/${id}/signature`, headers: token })).rawPayload.equals(next)).toBe(true);
      // Deleting the book removes it.
      await h.app.inject({ method: 'DELETE', url: `/api/books/${id}`, headers: h.auth });
      expect((await storedFiles(h.filesDir)).filter((f) => f.startsWith('private/'))).toHaveLength(before.length - 1);
    });
  });

  describe('the cover for the Persona', () => {
    it('sends a PNG or JPEG cover as it is, and says the book has one', async () => {
      const jpeg = await sharp({ create: { width: 30, height: 45, channels: 3, background: '#336699' } })
        .jpeg()
        .toBuffer();
      const id = (await create([['coverImage', { bytes: jpeg, filename: 'c.jpg' }]])).json().data._id as string;
      expect((await internal.inject({ url: `/internal/books/${id}/source`, headers: token })).json().data.hasCover).toBe(true);
      const res = await internal.inject({ url: `/internal/books/${id}/cover`, headers: token });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.rawPayload.equals(jpeg)).toBe(true);
      const pngId = (await create([['coverImage', { bytes: PNG_1PX, filename: 'c.png' }]])).json().data._id as string;
      const png = await internal.inject({ url: `/internal/books/${pngId}/cover`, headers: token });
      expect(png.headers['content-type']).toBe('image/png');
      expect(png.rawPayload.equals(PNG_1PX)).toBe(true);
    });

    it('converts a WebP or GIF cover to PNG', async () => {
      for (const bytes of [
        await sharp({ create: { width: 30, height: 45, channels: 3, background: '#993366' } })
          .webp()
          .toBuffer(),
        await sharp({ create: { width: 30, height: 45, channels: 3, background: '#339966' } })
          .gif()
          .toBuffer(),
      ]) {
        const id = (await create([['coverImage', { bytes, filename: 'c' }]])).json().data._id as string;
        const res = await internal.inject({ url: `/internal/books/${id}/cover`, headers: token });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('image/png');
        expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'png', width: 30, height: 45 });
      }
    });

    it('answers 404 without a cover or a book, and changes the source tag with a new cover', async () => {
      const id = (await create([])).json().data._id as string;
      expect((await internal.inject({ url: `/internal/books/${id}/cover`, headers: token })).statusCode).toBe(404);
      expect((await internal.inject({ url: '/internal/books/7f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c/cover', headers: token })).statusCode).toBe(404);
      const first = await internal.inject({ url: `/internal/books/${id}/source`, headers: token });
      expect(first.json().data.hasCover).toBe(false);
      await send('PUT', `/api/books/${id}`, [['coverImage', { bytes: PNG_1PX, filename: 'c.png' }]]);
      const after = await internal.inject({ url: `/internal/books/${id}/source`, headers: { ...token, 'if-none-match': first.headers.etag as string } });
      expect(after.statusCode).toBe(200);
      expect(after.json().data.hasCover).toBe(true);
    });
  });
}

describe('book files on PGlite', () => suite('pglite'));
describeWithPostgres()('book files on PostgreSQL', () => suite('postgres'));
