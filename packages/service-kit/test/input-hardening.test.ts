// What the security suite (e2e/test/security.test.ts) found at the skeleton's
// level: values PostgreSQL refuses reaching it (a 500), internal codes in
// answers, text/plain bodies, the router's own refusals echoing the address.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { clientAddress, createServiceApp, type ServiceApp } from '../src';

function buildApp(): ServiceApp {
  const app = createServiceApp({ name: 'test', logger: false });
  app.post('/things', { schema: { body: Type.Object({ name: Type.String() }, { additionalProperties: false }) } }, async (request) => ({ data: request.body }));
  app.get('/things/:id', { schema: { params: Type.Object({ id: Type.String({ format: 'uuid' }) }) } }, async (request) => ({ data: request.params }));
  app.get('/search', { schema: { querystring: Type.Object({ q: Type.Optional(Type.String()) }) } }, async (request) => ({ data: request.query }));
  // What a driver throws for a value its column refuses (SQLSTATE class 22), and for anything else.
  app.get('/bad-value', async () => {
    throw Object.assign(new Error('invalid input syntax for type uuid: "urn:uuid:x"'), { code: '22P02' });
  });
  app.get('/driver-failure', async () => {
    throw Object.assign(new Error('relation "secret_table" does not exist'), { code: '42P01' });
  });
  return app;
}

describe('input the database would refuse', () => {
  const app = buildApp();
  afterAll(() => app.close());

  it('takes bare UUIDs only (PostgreSQL refuses the "urn:uuid:" form ajv-formats accepts)', async () => {
    const id = '7d9f3f4e-1f1a-4c1e-9a0b-3c2d1e0f9a8b';
    expect((await app.inject({ url: `/things/${id}` })).statusCode).toBe(200);
    expect((await app.inject({ url: `/things/${id.toUpperCase()}` })).statusCode).toBe(200);
    for (const bad of [`urn:uuid:${id}`, `{${id}}`, id.replace(/-/g, '')]) {
      const res = await app.inject({ url: `/things/${encodeURIComponent(bad)}` });
      expect({ bad, status: res.statusCode, message: res.json().message }).toEqual({ bad, status: 400, message: 'path field "id" must be a valid id' });
    }
  });

  it('refuses a NUL character in a JSON string or key, and in the address', async () => {
    for (const payload of ['{"name":"a\\u0000b"}', '{"a\\u0000":"x","name":"b"}']) {
      const res = await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload });
      expect({ payload, status: res.statusCode, message: res.json().message }).toEqual({
        payload,
        status: 400,
        message: 'The body contains a NUL character (\\u0000), which is not allowed',
      });
    }
    // An escaped backslash before "u0000" is not a NUL.
    expect(
      (await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload: '{"name":"a\\\\u0000"}' })).json(),
    ).toEqual({ data: { name: 'a\\u0000' } });
    const res = await app.inject({ url: '/search?q=a%00b' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The address contains a NUL character (%00), which is not allowed');
  });

  it('answers text/plain with 415 instead of reading a string body', async () => {
    const res = await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'text/plain' }, payload: '{"name":"a"}' });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('Unsupported content type');
  });

  it("turns a value the database refused into a 400, and never sends a driver's code or message", async () => {
    const bad = await app.inject({ url: '/bad-value' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'The request contains a value that is not valid here',
      requestId: expect.any(String),
    });
    const failure = await app.inject({ url: '/driver-failure' });
    expect(failure.statusCode).toBe(500);
    expect(failure.json()).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'Something went wrong on our side. Please try again.',
      requestId: expect.any(String),
    });
  });

  it("answers the router's own refusals in the error shape without echoing the address", async () => {
    const long = await app.inject({ url: `/things/${'f'.repeat(2000)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toMatchObject({ statusCode: 414, error: 'URI Too Long', message: 'The address is too long: a part of it is over 100 characters' });
    const broken = await app.inject({ url: '/things/%E0%A4%A' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'The address is not valid: it has a broken %-escape' });
  });
});

describe('clientAddress', () => {
  const request = (remoteAddress: string, forwarded?: string) =>
    ({ ip: remoteAddress, socket: { remoteAddress }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } }) as unknown as FastifyRequest;

  it('believes the address the gateway forwards from a loopback or private peer', () => {
    expect(clientAddress(request('127.0.0.1', '203.0.113.7'))).toBe('203.0.113.7');
    expect(clientAddress(request('::ffff:10.1.2.3', '198.51.100.1, 203.0.113.9'))).toBe('203.0.113.9');
    expect(clientAddress(request('::1', '2001:db8::1'))).toBe('2001:db8::1');
    expect(clientAddress(request('172.20.0.5', '203.0.113.7'))).toBe('203.0.113.7');
  });

  it('ignores X-Forwarded-For from the internet, and a header that is not an address', () => {
    expect(clientAddress(request('203.0.113.50', '127.0.0.1'))).toBe('203.0.113.50');
    expect(clientAddress(request('127.0.0.1', 'not-an-ip'))).toBe('127.0.0.1');
    expect(clientAddress(request('127.0.0.1'))).toBe('127.0.0.1');
  });
});
