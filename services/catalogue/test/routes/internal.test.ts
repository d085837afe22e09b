import { multipart, PNG_1PX, startHarness, tinyPdf, type Harness } from '../support';
import { buildApp } from '../../src/app';
import { createAdminVerifier, type ServiceApp } from '@persona/service-kit';
import { TEST_JWT_SECRET } from '@persona/test-kit';

const TOKEN = 'internal-token-internal-token-internal-00';

describe('internal book source routes', () => {
  let h: Harness;
  let app: ServiceApp;
  let withPdf: string;
  let textOnly: string;

  beforeAll(async () => {
    h = await startHarness();
    app = await buildApp({ db: h.database.db, storage: h.storage, verifier: createAdminVerifier({ secret: TEST_JWT_SECRET }), internalToken: TOKEN });
    const category = (await h.app.inject({ method: 'POST', url: '/api/categories', payload: { name: 'Internal' }, headers: h.auth })).json().data._id;
    const post = async (extra: Array<[string, string | { bytes: Buffer; filename: string }]>) => {
      const body = await multipart([
        ['title', 'T'],
        ['author', 'A'],
        ['description', 'D'],
        ['category', category],
        ['price', '100'],
        ['content', JSON.stringify(['# One', 'First paragraph.'])],
        ...extra,
      ]);
      return (await h.app.inject({ method: 'POST', url: '/api/books', payload: body.payload, headers: { ...h.auth, ...body.headers } })).json().data
        ._id as string;
    };
    withPdf = await post([
      ['fullPdf', { bytes: tinyPdf('the full book'), filename: 'f.pdf' }],
      ['coverImage', { bytes: PNG_1PX, filename: 'c.png' }],
    ]);
    textOnly = await post([]);
  });
  afterAll(async () => {
    await app.close();
    await h.close();
  });

  const token = { 'x-internal-token': TOKEN };

  it('gives the personalisation service the full text', async () => {
    const res = await app.inject({ url: `/internal/books/${textOnly}/source`, headers: token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      bookId: textOnly,
      title: 'T',
      author: 'A',
      // The blurb of a printed copy's back cover (issue 27).
      description: 'D',
      paragraphs: ['# One', 'First paragraph.'],
      hasFullPdf: false,
      language: 'English',
      hasCover: false,
      hasAuthorSignature: false,
    });
  });

  it('tags the source, answers 304 for the copy the caller keeps, and a new tag once the book is written', async () => {
    const first = await app.inject({ url: `/internal/books/${textOnly}/source`, headers: token });
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    // Another book has its own tag.
    expect((await app.inject({ url: `/internal/books/${withPdf}/source`, headers: token })).headers.etag).not.toBe(tag);

    const same = await app.inject({ url: `/internal/books/${textOnly}/source`, headers: { ...token, 'if-none-match': tag } });
    expect(same.statusCode).toBe(304);
    expect(same.body).toBe('');
    expect(same.headers.etag).toBe(tag);
    // A tag it never gave: the whole source.
    const stale = await app.inject({ url: `/internal/books/${textOnly}/source`, headers: { ...token, 'if-none-match': '"not-this-one"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.json().data.paragraphs).toEqual(['# One', 'First paragraph.']);

    const edit = await multipart([['content', JSON.stringify(['# One', 'A new first paragraph.'])]]);
    const edited = await h.app.inject({ method: 'PUT', url: `/api/books/${textOnly}`, payload: edit.payload, headers: { ...h.auth, ...edit.headers } });
    expect(edited.statusCode).toBe(200);
    const after = await app.inject({ url: `/internal/books/${textOnly}/source`, headers: { ...token, 'if-none-match': tag } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(tag);
    expect(after.json().data.paragraphs).toEqual(['# One', 'A new first paragraph.']);
  });

  it('streams the full PDF to it', async () => {
    expect((await app.inject({ url: `/internal/books/${withPdf}/source`, headers: token })).json().data.hasFullPdf).toBe(true);
    const pdf = await app.inject({ url: `/internal/books/${withPdf}/pdf`, headers: token });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.equals(tinyPdf('the full book'))).toBe(true);
    expect((await app.inject({ url: `/internal/books/${textOnly}/pdf`, headers: token })).statusCode).toBe(404);
  });

  it("gives the orders service a book's price and printing cost in integer paise, as stored, for a checkout", async () => {
    const body = await multipart([
      ['title', 'Priced'],
      ['author', 'P'],
      ['description', 'D'],
      ['category', (await h.app.inject({ url: '/api/categories' })).json().data[0]._id],
      ['price', '349.5'],
      ['printingCost', '60.25'],
      ['content', JSON.stringify(['# One', 'Priced paragraph.'])],
    ]);
    const id = (await h.app.inject({ method: 'POST', url: '/api/books', payload: body.payload, headers: { ...h.auth, ...body.headers } })).json().data._id;
    const res = await app.inject({ url: `/internal/books/${id}/checkout`, headers: token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { id, title: 'Priced', author: 'P', pricePaise: 34950, printingCostPaise: 6025 } });
    // The public answer keeps rupees.
    expect((await h.app.inject({ url: `/api/books/${id}` })).json().data).toMatchObject({ price: 349.5, printingCost: 60.25 });

    const missing = await app.inject({ url: '/internal/books/7f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c/checkout', headers: token });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Book not found');
    expect((await app.inject({ url: '/internal/books/not-an-id/checkout', headers: token })).statusCode).toBe(400);
    expect((await app.inject({ url: `/internal/books/${id}/checkout` })).statusCode).toBe(401);
  });

  it('refuses callers without the internal token', async () => {
    for (const headers of [{}, { 'x-internal-token': 'wrong' }, { 'x-internal-token': `${TOKEN}x` }]) {
      expect((await app.inject({ url: `/internal/books/${withPdf}/pdf`, headers })).statusCode).toBe(401);
    }
  });

  it('is not mounted when no token is configured', async () => {
    expect((await h.app.inject({ url: `/internal/books/${withPdf}/source`, headers: token })).statusCode).toBe(404);
  });
});

describe('the full text for administrators', () => {
  let h: Harness;
  let id: string;
  beforeAll(async () => {
    h = await startHarness();
    const category = (await h.app.inject({ method: 'POST', url: '/api/categories', payload: { name: 'Texts' }, headers: h.auth })).json().data._id;
    const body = await multipart([
      ['title', 'T'],
      ['author', 'A'],
      ['description', 'D'],
      ['category', category],
      ['price', '100'],
      ['content', JSON.stringify(['# One', 'Only for admins.'])],
    ]);
    id = (await h.app.inject({ method: 'POST', url: '/api/books', payload: body.payload, headers: { ...h.auth, ...body.headers } })).json().data._id;
  });
  afterAll(() => h.close());

  it('is given to an administrator and to no one else', async () => {
    const res = await h.app.inject({ url: `/api/books/${id}/content`, headers: h.auth });
    expect(res.json()).toEqual({ data: { content: ['# One', 'Only for admins.'] } });
    expect((await h.app.inject({ url: `/api/books/${id}/content` })).statusCode).toBe(401);
    expect((await h.app.inject({ url: '/api/books/7f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c/content', headers: h.auth })).statusCode).toBe(404);
  });
});
