// The book source reader against a stand-in catalogue over HTTP: each source kept with its entity
// tag, asked for again with it, read whole only when the book was written since; a book's cover
// and its author's own signature read with it when the source says it has them (issue 24).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { catalogueSourceReader, SourceUnavailableError } from '../../../src/modules/personas/book-source-client';

const TOKEN = 'internal-token-internal-token-internal-00';
const TEXT_BOOK = '1f0c6a51-8f4c-4a43-9d36-8a9e8f2a1b11';
const PDF_BOOK = '2f0c6a51-8f4c-4a43-9d36-8a9e8f2a1b11';

describe('catalogueSourceReader', () => {
  let server: Server;
  let url: string;
  const seen: Array<{ path: string; ifNoneMatch: string | undefined; token: string | undefined }> = [];
  const books = new Map<string, { tag: string; paragraphs: string[]; pdf?: Buffer; cover?: Buffer; signature?: Buffer }>();

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response) => {
      const path = request.url ?? '';
      const ifNoneMatch = request.headers['if-none-match'];
      seen.push({ path, ifNoneMatch, token: request.headers['x-internal-token'] as string | undefined });
      const [, , , id, what] = path.split('/');
      const book = books.get(id!);
      if (!book) {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 404, message: 'Book not found' }));
        return;
      }
      if (what === 'pdf') {
        response.writeHead(200, { 'content-type': 'application/pdf' }).end(book.pdf);
        return;
      }
      if (what === 'cover' || what === 'signature') {
        const image = what === 'cover' ? book.cover : book.signature;
        if (image) response.writeHead(200, { 'content-type': what === 'cover' ? 'image/jpeg' : 'image/png' }).end(image);
        else response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 404, message: 'None' }));
        return;
      }
      if (ifNoneMatch === book.tag) {
        response.writeHead(304, { etag: book.tag }).end();
        return;
      }
      const data = {
        bookId: id,
        title: 'T',
        author: 'A',
        language: 'English',
        description: 'A blurb.',
        hasFullPdf: Boolean(book.pdf),
        paragraphs: book.pdf ? [] : book.paragraphs,
        ...(book.cover ? { hasCover: true } : {}),
        ...(book.signature ? { hasAuthorSignature: true } : {}),
      };
      response.writeHead(200, { 'content-type': 'application/json', etag: book.tag }).end(JSON.stringify({ data }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen.length = 0;
    books.clear();
  });

  it('reads a book whole once, then asks with its tag and keeps what it has while the catalogue answers 304', async () => {
    books.set(TEXT_BOOK, { tag: '"one"', paragraphs: ['# One', 'First.'] });
    const read = catalogueSourceReader(url, TOKEN);
    const first = await read(TEXT_BOOK, 'c-1');
    expect(first).toEqual({ title: 'T', author: 'A', language: 'English', description: 'A blurb.', source: { kind: 'text', paragraphs: ['# One', 'First.'] } });
    expect(await read(TEXT_BOOK, 'c-2')).toBe(first);
    expect(seen).toEqual([
      { path: `/internal/books/${TEXT_BOOK}/source`, ifNoneMatch: undefined, token: TOKEN },
      { path: `/internal/books/${TEXT_BOOK}/source`, ifNoneMatch: '"one"', token: TOKEN },
    ]);

    // The book is written: a new tag, the new text.
    books.set(TEXT_BOOK, { tag: '"two"', paragraphs: ['# One', 'Second.'] });
    expect((await read(TEXT_BOOK, 'c-3')).source).toEqual({ kind: 'text', paragraphs: ['# One', 'Second.'] });
    expect((await read(TEXT_BOOK, 'c-4')).source).toEqual({ kind: 'text', paragraphs: ['# One', 'Second.'] });
    expect(seen.slice(2).map((s) => s.ifNoneMatch)).toEqual(['"one"', '"two"']);
  });

  it('keeps a full PDF too: while the book is unchanged its PDF is not read again', async () => {
    books.set(PDF_BOOK, { tag: '"p1"', paragraphs: [], pdf: Buffer.from('%PDF-1.7 the book') });
    const read = catalogueSourceReader(url, TOKEN);
    const first = await read(PDF_BOOK, 'c-1');
    expect(first.source.kind).toBe('pdf');
    expect(Buffer.from((first.source as { bytes: Uint8Array }).bytes).toString()).toBe('%PDF-1.7 the book');
    expect(await read(PDF_BOOK, 'c-2')).toBe(first);
    expect(seen.map((s) => s.path.split('/').pop())).toEqual(['source', 'pdf', 'source']);
  });

  it("reads the cover and the author's signature when the source has them, and keeps them with it", async () => {
    const cover = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 4, 5, 6]);
    books.set(TEXT_BOOK, { tag: '"c1"', paragraphs: ['Text.'], cover, signature });
    const read = catalogueSourceReader(url, TOKEN);
    const first = await read(TEXT_BOOK, 'c-1');
    expect(Buffer.from(first.cover!).equals(cover)).toBe(true);
    expect(Buffer.from(first.authorSignature!).equals(signature)).toBe(true);
    expect(await read(TEXT_BOOK, 'c-2')).toBe(first);
    expect(seen.map((s) => s.path.split('/').pop()).sort()).toEqual(['cover', 'signature', 'source', 'source']);
    expect(seen.every((s) => s.token === TOKEN)).toBe(true);

    // A book without them asks for neither.
    seen.length = 0;
    books.set(PDF_BOOK, { tag: '"p"', paragraphs: ['Plain.'] });
    const plain = await read(PDF_BOOK, 'c-3');
    expect(plain.cover).toBeUndefined();
    expect(plain.authorSignature).toBeUndefined();
    expect(seen.map((s) => s.path.split('/').pop())).toEqual(['source']);
  });

  it('keeps nothing past its bound, and says a missing book will not come back', async () => {
    books.set(TEXT_BOOK, { tag: '"one"', paragraphs: ['x'.repeat(1000)] });
    const read = catalogueSourceReader(url, TOKEN, 15_000, 100);
    await read(TEXT_BOOK, 'c-1');
    await read(TEXT_BOOK, 'c-2');
    expect(seen.map((s) => s.ifNoneMatch)).toEqual([undefined, undefined]);

    const missing = read(PDF_BOOK, 'c-3');
    await expect(missing).rejects.toBeInstanceOf(SourceUnavailableError);
    await expect(missing).rejects.toMatchObject({ permanent: true });
    await expect(missing).rejects.toThrow(`the catalogue answered 404 for /internal/books/${PDF_BOOK}/source`);
  });
});
