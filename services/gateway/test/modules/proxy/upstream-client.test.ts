import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { CutShortError, SMALL_BODY_BYTES, UpstreamClient } from '../../../src/modules/proxy/upstream-client';

/** A service whose answers the tests script; it records what it was sent and when a client went away. */
function service(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const closedEarly: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.on('close', () => {
        if (!res.writableFinished) closedEarly.push(req.url!);
      });
      answer(req, res);
    });
  });
  return {
    seen,
    closedEarly,
    start: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readStream(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const big = Buffer.alloc(5 * 1024 * 1024, 'x');

describe('UpstreamClient', () => {
  const svc = service((req, res) => {
    if (req.url!.split('?')[0] === '/small') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 11, 'x-test': ['a', 'b'] });
      res.end('{"ok":true}');
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': big.length });
      res.end(big);
    } else if (req.url === '/chunked') {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('a,b\n');
      setTimeout(() => res.end('1,2\n'), 10);
    } else if (req.url === '/cut-short') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 100 });
      res.write('{"half":');
      setTimeout(() => res.socket?.destroy(), 10);
    } else if (req.url === '/endless') {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 1024 * 1024 * 1024 });
      const chunk = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    } else if (req.url === '/echo') {
      res.writeHead(201, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(req.method!) });
      res.end(req.method);
    } else {
      res.writeHead(404, { 'content-length': 0 });
      res.end();
    }
  });
  let base: string;
  const client = new UpstreamClient();
  beforeAll(async () => {
    base = await svc.start();
  });
  afterAll(async () => {
    await client.close();
    await svc.stop();
  });

  it('hands a small answer over whole, with its status and headers (repeated lines as a list)', async () => {
    const answer = await client.send(base, { method: 'GET', path: '/small?x=1', headers: { host: 'catalogue', 'x-request-id': 'r1' } });
    expect(answer.statusCode).toBe(200);
    expect(Buffer.isBuffer(answer.body)).toBe(true);
    expect(answer.body.toString()).toBe('{"ok":true}');
    expect(answer.headers['x-test']).toEqual(['a', 'b']);
    expect(svc.seen.at(-1)).toMatchObject({ method: 'GET', url: '/small?x=1', headers: { host: 'catalogue', 'x-request-id': 'r1' } });
  });

  it('streams an answer larger than it buffers, every byte in order', async () => {
    const answer = await client.send(base, { method: 'GET', path: '/big', headers: {} });
    expect(answer.body).toBeInstanceOf(Readable);
    const body = await readStream(answer.body as Readable);
    expect(body.length).toBe(big.length);
    expect(body.equals(big)).toBe(true);
  });

  it('buffers up to what it is told: the same large answer whole, and a chunked one only when told to', async () => {
    const whole = await client.send(base, { method: 'GET', path: '/big', headers: {}, bufferUpTo: big.length });
    expect(Buffer.isBuffer(whole.body) && whole.body.equals(big)).toBe(true);
    const streamed = await client.send(base, { method: 'GET', path: '/chunked', headers: {} });
    expect(streamed.body).toBeInstanceOf(Readable);
    expect((await readStream(streamed.body as Readable)).toString()).toBe('a,b\n1,2\n');
    const buffered = await client.send(base, { method: 'GET', path: '/chunked', headers: {}, bufferUnknownLength: true });
    expect(buffered.body.toString()).toBe('a,b\n1,2\n');
    // Told to keep unknown lengths whole, a known length past its limit still streams.
    const still = await client.send(base, { method: 'GET', path: '/big', headers: {}, bufferUnknownLength: true });
    expect(still.body).toBeInstanceOf(Readable);
    expect((await readStream(still.body as Readable)).length).toBe(big.length);
    expect(SMALL_BODY_BYTES).toBe(64 * 1024);
  });

  it('sends a request body stream on', async () => {
    const answer = await client.send(base, {
      method: 'POST',
      path: '/echo',
      headers: { 'content-type': 'text/plain' },
      body: Readable.from([Buffer.from('hello')]),
    });
    expect(answer.statusCode).toBe(201);
    expect(svc.seen.at(-1)).toMatchObject({ method: 'POST', body: 'hello' });
  });

  it('rejects with a CutShortError when a small answer stops midway, and destroys a stream with one', async () => {
    await expect(client.send(base, { method: 'GET', path: '/cut-short', headers: {} })).rejects.toBeInstanceOf(CutShortError);
    const answer = await client.send(base, { method: 'GET', path: '/cut-short', headers: {}, bufferUpTo: 10 });
    await expect(readStream(answer.body as Readable)).rejects.toBeInstanceOf(CutShortError);
  });

  it('asks the upstream for more only as the stream is read, and stops it when the stream is destroyed', async () => {
    const answer = await client.send(base, { method: 'GET', path: '/endless', headers: {} });
    const stream = answer.body as Readable;
    // Unread, the stream holds about its high-water mark: the upstream was paused, not read to the end.
    await new Promise((r) => setTimeout(r, 200));
    expect(stream.readableLength).toBeLessThan(8 * 1024 * 1024);
    stream.destroy();
    const deadline = Date.now() + 5000;
    while (!svc.closedEarly.includes('/endless') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(svc.closedEarly).toContain('/endless');
  });

  it('rejects with the connection error when nothing listens (not a CutShortError)', async () => {
    const closed = service(() => undefined);
    const url = await closed.start();
    await closed.stop();
    const err = await client.send(url, { method: 'GET', path: '/small', headers: {} }).catch((e: Error) => e);
    // undici's errors come from another realm under jest: matched by their code.
    expect(err).not.toBeInstanceOf(CutShortError);
    expect((err as Error & { code?: string }).code).toBe('ECONNREFUSED');
  });
});
