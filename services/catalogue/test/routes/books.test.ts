import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Book } from '@persona/contracts';
import sharp from 'sharp';
import { multipart, outboxTypes, PNG_1PX, startHarness, storedFiles, tinyPdf, type FormValue, type Harness } from '../support';

const MB = 1024 * 1024;

describe('book routes', () => {
  let h: Harness;
  let categoryId: string;
  let otherCategoryId: string;

  beforeAll(async () => {
    h = await startHarness();
    categoryId = (await h.app.inject({ method: 'POST', url: '/api/categories', payload: { name: 'Novels' }, headers: h.auth })).json().data._id;
    otherCategoryId = (await h.app.inject({ method: 'POST', url: '/api/categories', payload: { name: 'Lives' }, headers: h.auth })).json().data._id;
  });
  afterAll(() => h.close());

  const baseFields = (): Array<[string, FormValue]> => [
    ['title', 'The Lighthouse Keeper'],
    ['author', 'Meera Iyer'],
    ['description', 'A quiet novel about light and distance.'],
    ['category', categoryId],
    ['price', '349.5'],
  ];

  async function postBook(fields: Array<[string, FormValue]>, headers: Record<string, string> = h.auth) {
    const body = await multipart(fields);
    return h.app.inject({ method: 'POST', url: '/api/books', payload: body.payload, headers: { ...headers, ...body.headers } });
  }

  async function putBook(id: string, fields: Array<[string, FormValue]>) {
    const body = await multipart(fields);
    return h.app.inject({ method: 'PUT', url: `/api/books/${id}`, payload: body.payload, headers: { ...h.auth, ...body.headers } });
  }

  async function bookCount(): Promise<number> {
    return (await h.app.inject({ url: '/api/books' })).json().meta.total;
  }

  describe('creating a book', () => {
    let created: Book;

    beforeAll(async () => {
      const res = await postBook([
        ...baseFields(),
        ['printingCost', '120'],
        ['ratings', '4.5'],
        ['trailLimit', '3'],
        ['tags', JSON.stringify(['Fiction', ' Classic ', 'fiction', ''])],
        ['content', JSON.stringify(['# Chapter One', 'FULL-TEXT-ONLY paragraph.', '  '])],
        ['sampleContent', JSON.stringify([{ chapter: 'One', content: 'It was night.', isAd: false }])],
        ['coverImage', { bytes: PNG_1PX, filename: 'cover.png', type: 'image/png' }],
        ['images', { bytes: PNG_1PX, filename: 'a.png', type: 'image/png' }],
        ['samplePdf', { bytes: tinyPdf('sample'), filename: 'sample.pdf', type: 'application/pdf' }],
        ['fullPdf', { bytes: tinyPdf('full', 3), filename: 'full.pdf', type: 'application/pdf' }],
      ]);
      expect(res.statusCode).toBe(201);
      expect(res.json().message).toBe('Book created successfully');
      created = res.json().data;
    });

    it('answers the public shape with rupee amounts and cleaned tags', () => {
      expect(created).toMatchObject({
        title: 'The Lighthouse Keeper',
        author: 'Meera Iyer',
        price: 349.5,
        printingCost: 120,
        ratings: { average: 4.5 },
        trailLimit: 3,
        tags: ['Fiction', 'Classic'],
        category: { _id: categoryId, name: 'Novels' },
        sampleContent: [{ chapter: 'One', content: 'It was night.', isAd: false }],
        hasFullPdf: true,
        // The facts a buyer checks: English unless named, the full PDF's pages, the full text's words.
        language: 'English',
        pageCount: 3,
        wordCount: 5,
      });
      expect(created.coverImage?.url).toMatch(/^\/api\/files\/covers\/[0-9a-f-]{36}\.png$/);
      expect(created.images).toHaveLength(1);
      expect(created.samplePdf?.url).toMatch(/^\/api\/files\/samples\/[0-9a-f-]{36}\.pdf$/);
    });

    it('takes a title, an author and a text in any script the Persona prints, italic author line and all', async () => {
      const res = await postBook([
        ...baseFields().filter(([k]) => k !== 'author' && k !== 'title'),
        ['title', 'सूरज की किरण'],
        ['author', 'सूरज प्रकाश'],
        ['content', JSON.stringify(['# पहला अध्याय', 'सुबह सूरज उगा। فاطمة الزهراء، தமிழ்செல்வி.'])],
      ]);
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({ title: 'सूरज की किरण', author: 'सूरज प्रकाश' });
      expect((await h.app.inject({ method: 'DELETE', url: `/api/books/${res.json().data._id}`, headers: h.auth })).statusCode).toBe(200);
    });

    it('keeps money in paise inside', async () => {
      const row = await h.database.db
        .selectFrom('books')
        .select(['price_paise', 'printing_cost_paise'])
        .where('id', '=', created._id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ price_paise: 34950, printing_cost_paise: 12000 });
    });

    it('never exposes the full text or where the full PDF lives', async () => {
      for (const url of ['/api/books', `/api/books/${created._id}`]) {
        const body = (await h.app.inject({ url })).body;
        expect(body).not.toMatch(/FULL-TEXT-ONLY|fullPdf"|full_pdf|private\//);
        const parsed = JSON.parse(body).data;
        for (const book of Array.isArray(parsed) ? parsed : [parsed]) {
          expect(Object.keys(book)).not.toEqual(expect.arrayContaining(['content']));
        }
      }
      const privateFiles = (await storedFiles(h.filesDir)).filter((k) => k.startsWith('private/'));
      expect(privateFiles).toHaveLength(1);
      const direct = await h.app.inject({ url: `/api/files/${privateFiles[0]}` });
      expect(direct.statusCode).toBe(404);
      const traversal = await h.app.inject({ url: '/api/files/covers/..%2Fprivate%2F' + privateFiles[0].split('/')[1] });
      expect(traversal.statusCode).toBe(404);
    });

    it('serves the cover and the sample PDF with safe headers', async () => {
      const cover = await h.app.inject({ url: created.coverImage!.url });
      expect(cover.statusCode).toBe(200);
      expect(cover.headers['content-type']).toBe('image/png');
      expect(cover.headers['x-content-type-options']).toBe('nosniff');
      expect(cover.rawPayload.equals(PNG_1PX)).toBe(true);
      const sample = await h.app.inject({ url: created.samplePdf!.url });
      expect(sample.headers['content-type']).toBe('application/pdf');
    });

    it('records book.created in the outbox in the same transaction', async () => {
      expect(await outboxTypes(h.database)).toContain('book.created');
    });
  });

  describe('refusing bad input (4xx, nothing written)', () => {
    const eleven = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(11 * MB, 0x20), Buffer.from('\n%%EOF\n')]);
    const cases: Array<[string, () => Array<[string, FormValue]>, number, string]> = [
      ['a missing title', () => baseFields().filter(([k]) => k !== 'title'), 400, 'body field "title" is required'],
      ['a blank author', () => [...baseFields().filter(([k]) => k !== 'author'), ['author', '   ']], 400, 'body field "author" must not be blank'],
      ['a price that is not a number', () => [...baseFields().filter(([k]) => k !== 'price'), ['price', 'abc']], 400, 'body field "price" must be a number'],
      ['a negative price', () => [...baseFields().filter(([k]) => k !== 'price'), ['price', '-1']], 400, 'body field "price" must be >= 0'],
      [
        'a price in fractions of a paisa',
        () => [...baseFields().filter(([k]) => k !== 'price'), ['price', '10.255']],
        400,
        'body field "price" must have at most two decimals',
      ],
      ['a fractional trail limit', () => [...baseFields(), ['trailLimit', '2.5']], 400, 'body field "trailLimit" must be integer'],
      ['tags that are not a JSON list', () => [...baseFields(), ['tags', 'a,b']], 400, 'body field "tags" must be a JSON list'],
      ['tags that are not strings', () => [...baseFields(), ['tags', '[1,2]']], 400, 'body field "tags.0" must be string'],
      ['an unknown field', () => [...baseFields(), ['isFeatured', 'true']], 400, 'body field "isFeatured" is not allowed'],
      ['a forged _id', () => [...baseFields(), ['_id', randomUUID()]], 400, 'body field "_id" is not allowed'],
      ['a forged createdAt', () => [...baseFields(), ['createdAt', '2020-01-01']], 400, 'body field "createdAt" is not allowed'],
      [
        'a malformed category id',
        () => [...baseFields().filter(([k]) => k !== 'category'), ['category', 'fiction']],
        400,
        'body field "category" must be a valid id',
      ],
      ['an unknown category', () => [...baseFields().filter(([k]) => k !== 'category'), ['category', randomUUID()]], 400, 'The chosen category does not exist'],
      [
        'a sample page with a wrong shape',
        () => [...baseFields(), ['sampleContent', '[{"chapter":"x"}]']],
        400,
        'body field "sampleContent.0.content" is required',
      ],
      ['a field sent twice', () => [...baseFields(), ['title', 'again']], 400, 'body field "title" was sent twice'],
      [
        'an author no Persona can print',
        () => [...baseFields().filter(([k]) => k !== 'author'), ['author', 'Li Bai 李白']],
        400,
        'The author has characters no Persona can print: “李” (U+674E), “白” (U+767D)',
      ],
      [
        'a title no Persona can print',
        () => [...baseFields().filter(([k]) => k !== 'title'), ['title', 'Sunrise 🌅']],
        400,
        'The title has a character no Persona can print: “🌅” (U+1F305)',
      ],
      [
        'a paragraph of the text no Persona can print',
        () => [...baseFields(), ['content', JSON.stringify(['सूरज उगा।', 'Bell\u0007 Jar'])]],
        400,
        'Paragraph 2 of the content has a character no Persona can print: U+0007',
      ],
      ['an unknown file field', () => [...baseFields(), ['avatar', { bytes: PNG_1PX, filename: 'a.png' }]], 400, 'body field "avatar" is not allowed'],
      [
        'a text file as the cover',
        () => [...baseFields(), ['coverImage', { bytes: Buffer.from('hello'), filename: 'cover.png', type: 'image/png' }]],
        415,
        'Cover image must be a JPEG, PNG, GIF or WebP image',
      ],
      [
        'an SVG with script as the cover',
        () => [
          ...baseFields(),
          [
            'coverImage',
            { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), filename: 'c.svg', type: 'image/svg+xml' },
          ],
        ],
        415,
        'Cover image must be a JPEG, PNG, GIF or WebP image',
      ],
      [
        'HTML renamed .pdf as the full PDF',
        () => [...baseFields(), ['fullPdf', { bytes: Buffer.from('<html><script>x</script></html>'), filename: 'book.pdf', type: 'application/pdf' }]],
        415,
        'Full PDF must be a PDF file',
      ],
      [
        'an image as the sample PDF',
        () => [...baseFields(), ['samplePdf', { bytes: PNG_1PX, filename: 's.pdf', type: 'application/pdf' }]],
        415,
        'Sample PDF must be a PDF file',
      ],
      [
        'an 11 MB full PDF',
        () => [
          ...baseFields(),
          ['coverImage', { bytes: PNG_1PX, filename: 'c.png' }],
          ['fullPdf', { bytes: eleven, filename: 'big.pdf', type: 'application/pdf' }],
        ],
        413,
        'Full PDF must be under 10MB',
      ],
      [
        'an 11 MB sample PDF',
        () => [...baseFields(), ['samplePdf', { bytes: eleven, filename: 'big.pdf', type: 'application/pdf' }]],
        413,
        'Sample PDF must be under 10MB',
      ],
      [
        'a polyglot (GIF header + script) as the cover',
        () => [
          ...baseFields(),
          [
            'coverImage',
            { bytes: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;<script>alert(1)</script>;', 'latin1'), filename: 'c.gif', type: 'image/gif' },
          ],
        ],
        415,
        'The cover image contains HTML or script; upload a plain image',
      ],
      [
        'a real PNG with a page appended as an image',
        () => [
          ...baseFields(),
          ['images', { bytes: Buffer.concat([PNG_1PX, Buffer.from('<html><script>alert(1)</script></html>')]), filename: 'i.png', type: 'image/png' }],
        ],
        415,
        'An image contains HTML or script; upload a plain image',
      ],
      [
        'a PNG signature alone as the cover',
        () => [...baseFields(), ['coverImage', { bytes: PNG_1PX.subarray(0, 8), filename: 'c.png', type: 'image/png' }]],
        415,
        'The cover image is not a complete PNG image; upload a JPEG, PNG, GIF or WebP image',
      ],
      [
        'a zero-byte cover',
        () => [...baseFields(), ['coverImage', { bytes: Buffer.alloc(0), filename: 'c.png', type: 'image/png' }]],
        400,
        'Cover image is empty',
      ],
      [
        'a title with a NUL character',
        () => [...baseFields().filter(([k]) => k !== 'title'), ['title', 'Nul\u0000Title']],
        400,
        'body field "title" contains a NUL character, which is not allowed',
      ],
      [
        'tags with a NUL character',
        () => [...baseFields(), ['tags', '["a\\u0000b"]']],
        400,
        'body field "tags" contains a NUL character, which is not allowed',
      ],
      [
        'sample pages with __proto__',
        () => [...baseFields(), ['sampleContent', '[{"chapter":"c","content":"x","isAd":false,"__proto__":{"polluted":true}}]']],
        400,
        'body field "sampleContent" contains a forbidden property (__proto__ or constructor)',
      ],
      [
        'tags with constructor.prototype',
        () => [...baseFields(), ['tags', '[{"constructor":{"prototype":{"polluted":true}}}]']],
        400,
        'body field "tags" contains a forbidden property (__proto__ or constructor)',
      ],
      [
        'a category id in the urn:uuid: form',
        () => [...baseFields().filter(([k]) => k !== 'category'), ['category', `urn:uuid:${randomUUID()}`]],
        400,
        'body field "category" must be a valid id',
      ],
    ];

    it.each(cases)('refuses %s', async (_label, fields, status, message) => {
      const before = { books: await bookCount(), files: await storedFiles(h.filesDir), events: (await outboxTypes(h.database)).length };
      const res = await postBook(fields());
      expect(res.statusCode).toBe(status);
      expect(res.json()).toMatchObject({ statusCode: status, message });
      expect(await bookCount()).toBe(before.books);
      expect(await storedFiles(h.filesDir)).toEqual(before.files);
      expect((await outboxTypes(h.database)).length).toBe(before.events);
    });

    it('refuses a JSON body with 415', async () => {
      const res = await h.app.inject({ method: 'POST', url: '/api/books', payload: { title: 'x' }, headers: h.auth });
      expect(res.statusCode).toBe(415);
      expect(res.json().message).toBe('Send the book as multipart/form-data');
    });

    it('answers 401 without a valid admin token, before reading the body', async () => {
      const res = await postBook(baseFields(), {});
      expect(res.statusCode).toBe(401);
      const bad = await postBook([['junk', 'x']], { authorization: 'Bearer nonsense' });
      expect(bad.statusCode).toBe(401);
    });
  });

  describe('reading', () => {
    beforeAll(async () => {
      const add = (title: string, author: string, tags: string[], category = categoryId) =>
        postBook([
          ['title', title],
          ['author', author],
          ['description', 'd'],
          ['category', category],
          ['price', '100'],
          ['tags', JSON.stringify(tags)],
        ]);
      await add('Gitanjali', 'Rabindranath Tagore', ['Poetry', 'Classic']);
      await add('Meditations', 'Marcus Aurelius', ['Philosophy', 'Self-Help'], otherCategoryId);
      await add('100% True Stories', 'Anon_ymous', ['Memoir']);
    });

    const titles = async (url: string) => (await h.app.inject({ url })).json().data.map((b: { title: string }) => b.title);

    it('searches title and author case-insensitively', async () => {
      expect(await titles('/api/books?search=GITAN')).toEqual(['Gitanjali']);
      expect(await titles('/api/books?search=aurelius')).toEqual(['Meditations']);
      expect(await titles('/api/books?search=100%25')).toEqual(['100% True Stories']);
      expect(await titles('/api/books?search=on_y')).toEqual(['100% True Stories']);
      expect(await titles('/api/books?search=zzz')).toEqual([]);
    });

    it('filters by tag (any case) and by category', async () => {
      expect(await titles('/api/books?tag=self-help')).toEqual(['Meditations']);
      expect(await titles(`/api/books?category=${otherCategoryId}`)).toEqual(['Meditations']);
    });

    it('pages newest first with totals', async () => {
      const first = (await h.app.inject({ url: '/api/books?limit=2&page=1' })).json();
      const second = (await h.app.inject({ url: '/api/books?limit=2&page=2' })).json();
      expect(first.meta).toEqual({ total: 4, page: 1, limit: 2 });
      expect(first.data.map((b: { title: string }) => b.title)).toEqual(['100% True Stories', 'Meditations']);
      expect(second.data).toHaveLength(2);
    });

    it.each([
      ['/api/books?page=0', 'query field "page" must be >= 1'],
      ['/api/books?limit=500', 'query field "limit" must be <= 100'],
      ['/api/books?limit=ten', 'query field "limit" must be integer'],
      ['/api/books?category=fiction', 'query field "category" must be a valid id'],
      ['/api/books?sort=price', 'query field "sort" must be one of: relevance, newest, price-asc, price-desc, rating'],
      ['/api/books?order=price', 'query field "order" is not allowed'],
      ['/api/books/not-a-uuid', 'path field "id" must be a valid id'],
    ])('refuses %s with 400', async (url, message) => {
      const res = await h.app.inject({ url });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    });

    it('lists summaries without the sample text, which only the single book carries', async () => {
      const list = (await h.app.inject({ url: '/api/books' })).json().data;
      expect(list.every((b: object) => !('sampleContent' in b))).toBe(true);
      const one = (await h.app.inject({ url: `/api/books/${list[0]._id}` })).json().data;
      expect(one).toHaveProperty('sampleContent');
    });

    it('answers 404 for an unknown book', async () => {
      const res = await h.app.inject({ url: `/api/books/${randomUUID()}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found', message: 'Book not found' });
    });

    it('answers 304 to a matching ETag and a new ETag after a change', async () => {
      const first = await h.app.inject({ url: '/api/books' });
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"v\d+-/);
      expect((await h.app.inject({ url: '/api/books', headers: { 'if-none-match': etag } })).statusCode).toBe(304);
      await h.app.inject({ method: 'POST', url: '/api/categories', payload: { name: 'Bump' }, headers: h.auth });
      const after = await h.app.inject({ url: '/api/books', headers: { 'if-none-match': etag } });
      expect(after.statusCode).toBe(200);
      expect(after.headers.etag).not.toBe(etag);
    });
  });

  describe('sized copies of covers', () => {
    const jpeg = (width: number, height: number) =>
      sharp({ create: { width, height, channels: 3, background: '#334155' } })
        .jpeg({ quality: 90 })
        .toBuffer();

    it('serves a cover as WebP at each listed width, never wider than the upload, and removes the copies with the cover', async () => {
      const created = (await postBook([...baseFields(), ['coverImage', { bytes: await jpeg(600, 900), filename: 'c.jpg', type: 'image/jpeg' }]])).json().data;
      const url: string = created.coverImage.url;
      const small = await h.app.inject({ url: `${url}?w=240` });
      expect(small.statusCode).toBe(200);
      expect(small.headers['content-type']).toBe('image/webp');
      expect(small.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(await sharp(small.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 240, height: 360 });
      expect(small.rawPayload.length).toBeLessThan((await h.app.inject({ url })).rawPayload.length);
      // Asked again, the same bytes come from the copy kept on disk.
      expect((await h.app.inject({ url: `${url}?w=240` })).rawPayload.equals(small.rawPayload)).toBe(true);
      expect(await sharp((await h.app.inject({ url: `${url}?w=640` })).rawPayload).metadata()).toMatchObject({ width: 600, height: 900 });
      const copies = (await storedFiles(path.join(h.filesDir, 'variants'))).length;
      expect(copies).toBe(2);

      await putBook(created._id, [['coverImage', { bytes: await jpeg(300, 450), filename: 'd.jpg', type: 'image/jpeg' }]]);
      expect(await storedFiles(path.join(h.filesDir, 'variants'))).toEqual([]);
      expect((await h.app.inject({ url: `${url}?w=240` })).statusCode).toBe(404);
    });

    it('refuses a width that is not listed, and has no copies of a sample PDF', async () => {
      const created = (
        await postBook([
          ...baseFields(),
          ['coverImage', { bytes: await jpeg(60, 90), filename: 'c.jpg', type: 'image/jpeg' }],
          ['samplePdf', { bytes: tinyPdf(), filename: 's.pdf' }],
        ])
      ).json().data;
      const odd = await h.app.inject({ url: `${created.coverImage.url}?w=241` });
      expect(odd.statusCode).toBe(400);
      expect(odd.json().message).toMatch(/query field "w"/);
      expect((await h.app.inject({ url: `${created.coverImage.url}?size=240` })).statusCode).toBe(400);
      expect((await h.app.inject({ url: `${created.samplePdf.url}?w=240` })).statusCode).toBe(404);
    });
  });

  describe('updating and deleting', () => {
    it('changes the price, replaces the cover and removes the old file', async () => {
      const created = (await postBook([...baseFields(), ['coverImage', { bytes: PNG_1PX, filename: 'c.png' }]])).json().data;
      const oldKey = created.coverImage.url.replace('/api/files/', '');
      const res = await putBook(created._id, [
        ['price', '499'],
        ['coverImage', { bytes: PNG_1PX, filename: 'd.png' }],
      ]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ data: { price: 499, title: 'The Lighthouse Keeper' }, message: 'Book updated successfully' });
      expect(res.json().data.coverImage.url).not.toBe(created.coverImage.url);
      expect(await storedFiles(h.filesDir)).not.toContain(oldKey);
      expect((await h.app.inject({ url: `/api/books/${created._id}` })).json().data.price).toBe(499);
    });

    it("states the book's language as named, and counts the words of a new full text and the pages of a new full PDF", async () => {
      const created = (await postBook([...baseFields(), ['language', ' Malayalam ']])).json().data;
      expect(created).toMatchObject({ language: 'Malayalam', pageCount: null, wordCount: null });
      const res = await putBook(created._id, [
        ['content', JSON.stringify(['One two three.', '', 'Four  five\nsix'])],
        ['fullPdf', { bytes: tinyPdf('full', 7), filename: 'full.pdf', type: 'application/pdf' }],
      ]);
      expect(res.json().data).toMatchObject({ language: 'Malayalam', pageCount: 7, wordCount: 6 });
      // An update that leaves them out keeps them.
      expect((await putBook(created._id, [['price', '10']])).json().data).toMatchObject({ language: 'Malayalam', pageCount: 7, wordCount: 6 });
      // A PDF that cannot be read has no page count to state (making its Persona is what fails).
      const unreadable = await putBook(created._id, [['fullPdf', { bytes: Buffer.from('%PDF-1.4\n%%EOF\n'), filename: 'x.pdf', type: 'application/pdf' }]]);
      expect(unreadable.json().data).toMatchObject({ hasFullPdf: true, pageCount: null });
      for (const language of ['E', 'x'.repeat(41), 'Eng\u0007lish']) {
        expect((await putBook(created._id, [['language', language]])).statusCode).toBe(400);
      }
      expect((await h.app.inject({ url: `/api/books/${created._id}` })).json().data.language).toBe('Malayalam');
    });

    it('refuses a bad update and keeps the book as it was', async () => {
      const created = (await postBook(baseFields())).json().data;
      const files = await storedFiles(h.filesDir);
      const res = await putBook(created._id, [
        ['price', '12'],
        ['coverImage', { bytes: Buffer.from('GIF00'), filename: 'x.gif' }],
      ]);
      expect(res.statusCode).toBe(415);
      expect((await h.app.inject({ url: `/api/books/${created._id}` })).json().data.price).toBe(349.5);
      expect(await storedFiles(h.filesDir)).toEqual(files);
      expect((await putBook(randomUUID(), [['price', '1']])).statusCode).toBe(404);
    });

    it('deletes a book, its files and records the event', async () => {
      const created = (
        await postBook([...baseFields(), ['coverImage', { bytes: PNG_1PX, filename: 'c.png' }], ['fullPdf', { bytes: tinyPdf(), filename: 'f.pdf' }]])
      ).json().data;
      const before = await storedFiles(h.filesDir);
      const res = await h.app.inject({ method: 'DELETE', url: `/api/books/${created._id}`, headers: h.auth });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { _id: created._id }, message: 'Book deleted successfully' });
      expect((await h.app.inject({ url: `/api/books/${created._id}` })).statusCode).toBe(404);
      expect((await storedFiles(h.filesDir)).length).toBe(before.length - 2);
      expect((await outboxTypes(h.database)).at(-1)).toBe('book.deleted');
      expect((await h.app.inject({ method: 'DELETE', url: `/api/books/${created._id}`, headers: h.auth })).statusCode).toBe(404);
    });
  });
});
