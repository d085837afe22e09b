// The preview's book reader against a stand-in catalogue over HTTP (issue 24): the public answer
// for the title and author, and the author's own signature from the internal route only when the
// book says it has one, so the preview draws the page the Persona will print.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { catalogueTitleReader } from '../../../src/modules/personas/preview';

const TOKEN = 'internal-token-internal-token-internal-00';
const SIGNED = '1f0c6a51-8f4c-4a43-9d36-8a9e8f2a1b11';
const UNSIGNED = '2f0c6a51-8f4c-4a43-9d36-8a9e8f2a1b11';
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

describe('catalogueTitleReader', () => {
  let server: Server;
  let url: string;
  const seen: Array<{ path: string; token: string | undefined }> = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '';
      seen.push({ path, token: request.headers['x-internal-token'] as string | undefined });
      const json = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (path === `/internal/books/${SIGNED}/signature`) response.writeHead(200, { 'content-type': 'image/png' }).end(SIGNATURE);
      else if (path === `/api/books/${SIGNED}`) json(200, { data: { title: 'Signed', author: 'A', hasAuthorSignature: true } });
      else if (path === `/api/books/${UNSIGNED}`) json(200, { data: { title: 'Unsigned', author: 'B', hasAuthorSignature: false } });
      else json(404, { statusCode: 404, message: 'Book not found' });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen.length = 0;
  });

  it("reads the author's own signature with the internal token when the book has one", async () => {
    const book = await catalogueTitleReader(url, TOKEN)(SIGNED, 'c-1');
    expect(book).toMatchObject({ title: 'Signed', author: 'A' });
    expect(Buffer.from(book!.authorSignature!).equals(SIGNATURE)).toBe(true);
    expect(seen).toEqual([
      { path: `/api/books/${SIGNED}`, token: undefined },
      { path: `/internal/books/${SIGNED}/signature`, token: TOKEN },
    ]);
  });

  it('asks for no signature when the book has none, and answers null for a book that does not exist', async () => {
    expect(await catalogueTitleReader(url, TOKEN)(UNSIGNED, 'c-2')).toEqual({ title: 'Unsigned', author: 'B' });
    expect(await catalogueTitleReader(url, TOKEN)('3f0c6a51-8f4c-4a43-9d36-8a9e8f2a1b11', 'c-3')).toBeNull();
    expect(seen.map((s) => s.path)).toEqual([`/api/books/${UNSIGNED}`, '/api/books/3f0c6a51-8f4c-4a43-9d36-8a9e8f2a1b11']);
  });
});
