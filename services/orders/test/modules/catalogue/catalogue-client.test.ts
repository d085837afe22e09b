// The checkout's book comes from the catalogue's internal answer in paise: read with the shared
// token and the caller's correlation id, a 404 the buyer's, anything else the shop's 503, and an
// answer that is not the contract's never priced.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CheckoutBook } from '@persona/contracts';
import { catalogueBookReader } from '../../../src/modules/catalogue/catalogue-client';

const TOKEN = 'internal-token-internal-token-internal-00';
const BOOK: CheckoutBook = { id: '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c', title: 'Gitanjali', author: 'Tagore', pricePaise: 34950, printingCostPaise: 6025 };
const ODD = '7a1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5d';
const BROKEN = '8a1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5e';

describe("orders' catalogue client", () => {
  let server: Server;
  let url: string;
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];

  beforeAll(async () => {
    // A stand-in for the catalogue's GET /internal/books/:id/checkout (services/catalogue's route test proves the real one).
    server = createServer((request, response) => {
      seen.push({ url: request.url ?? '', headers: request.headers });
      const send = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (request.headers['x-internal-token'] !== TOKEN) return send(401, { statusCode: 401, error: 'Unauthorized', message: 'Internal route' });
      if (request.url === `/internal/books/${BOOK.id}/checkout`) return send(200, { data: BOOK });
      // Rupees where paise belong: an answer that is not the contract's.
      if (request.url === `/internal/books/${ODD}/checkout`) return send(200, { data: { ...BOOK, id: ODD, pricePaise: 349.5 } });
      if (request.url === `/internal/books/${BROKEN}/checkout`) return send(500, { statusCode: 500, error: 'Internal Server Error', message: 'down' });
      return send(404, { statusCode: 404, error: 'Not Found', message: 'Book not found' });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads the price and printing cost in paise from the internal route, with the token and the correlation id', async () => {
    const book = await catalogueBookReader(url, TOKEN)(BOOK.id, 'checkout-7');
    expect(book).toEqual(BOOK);
    expect(seen.at(-1)).toMatchObject({ url: `/internal/books/${BOOK.id}/checkout`, headers: { 'x-internal-token': TOKEN, 'x-correlation-id': 'checkout-7' } });
  });

  it('answers 404 for a book the catalogue does not have', async () => {
    await expect(catalogueBookReader(url, TOKEN)('9a1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5f', 'c')).rejects.toMatchObject({
      statusCode: 404,
      message: 'Book not found',
    });
  });

  it("answers 503 when the catalogue fails, refuses the token or is not there: the shop's problem, not the buyer's book", async () => {
    const unavailable = { statusCode: 503, code: 'CATALOGUE_UNAVAILABLE' };
    await expect(catalogueBookReader(url, TOKEN)(BROKEN, 'c')).rejects.toMatchObject(unavailable);
    await expect(catalogueBookReader(url, 'x'.repeat(40))(BOOK.id, 'c')).rejects.toMatchObject(unavailable);
    await expect(catalogueBookReader('http://127.0.0.1:1', TOKEN, 500)(BOOK.id, 'c')).rejects.toMatchObject(unavailable);
  });

  it('never prices from an answer that is not the contract (a price in rupees)', async () => {
    await expect(catalogueBookReader(url, TOKEN)(ODD, 'c')).rejects.toMatchObject({ statusCode: 503, code: 'CATALOGUE_UNAVAILABLE' });
  });
});
