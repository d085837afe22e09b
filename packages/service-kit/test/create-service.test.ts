import { Type } from '@sinclair/typebox';
import { mintAdminToken, TEST_JWT_SECRET, unsignedToken } from '@persona/test-kit';
import { createAdminVerifier, createServiceApp, requireAdmin, notFound, sessionRevocationCheck, type ServiceApp } from '../src';

function buildApp(readyOk = true): ServiceApp {
  const app = createServiceApp({
    name: 'test',
    logger: false,
    readiness: {
      db: () => {
        if (!readyOk) throw new Error('db down');
      },
    },
  });
  const revoked = new Set<string>(['revoked-jti']);
  const verifier = createAdminVerifier({ secret: TEST_JWT_SECRET, isRevoked: (jti) => revoked.has(jti) });
  app.post(
    '/things',
    { schema: { body: Type.Object({ name: Type.String({ minLength: 1 }), count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }) } },
    async (request) => ({ data: request.body }),
  );
  app.get(
    '/things/:id',
    {
      schema: { params: Type.Object({ id: Type.String({ format: 'uuid' }) }), querystring: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1 })) }) },
    },
    async (request) => {
      if (request.params.id === '00000000-0000-4000-8000-000000000000') throw notFound('Thing not found');
      return { data: { id: request.params.id, page: request.query.page ?? null } };
    },
  );
  app.get('/unavailable', async () => {
    // Like the db package's DatabaseUnavailableError: its status and message are meant for the client.
    throw Object.assign(
      new Error('The database is not answering right now; please try again shortly', { cause: new Error('connect ECONNREFUSED 10.0.0.5:5432') }),
      {
        statusCode: 503,
        code: 'DATABASE_UNAVAILABLE',
        expose: true,
      },
    );
  });
  app.get('/boom', async () => {
    throw new Error('secret internal detail');
  });
  app.get('/admin-only', { onRequest: requireAdmin(verifier) }, async (request) => ({ data: { sub: request.admin?.sub } }));
  return app;
}

describe('service skeleton', () => {
  const app = buildApp();
  afterAll(() => app.close());

  it('accepts a valid body', async () => {
    const res = await app.inject({ method: 'POST', url: '/things', payload: { name: 'a', count: 2 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { name: 'a', count: 2 } });
  });

  it.each([
    [{ name: 'a', count: '2' }, 'body field "count" must be integer'],
    [{ count: 2 }, 'body field "name" is required'],
    [{ name: 'a', count: 2, isAdmin: true }, 'body field "isAdmin" is not allowed'],
    [{ name: '', count: 2 }, 'body field "name" must not be empty'],
  ])('refuses %j with a clear 400', async (payload, message) => {
    const res = await app.inject({ method: 'POST', url: '/things', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message });
  });

  it('refuses prototype poisoning', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"a","count":1,"__proto__":{"x":1}}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/forbidden property/);
  });

  it('refuses malformed JSON', async () => {
    const res = await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The body is not valid JSON');
  });

  it('coerces query strings but refuses malformed ids', async () => {
    const ok = await app.inject({ url: '/things/7d9f3f4e-1f1a-4c1e-9a0b-3c2d1e0f9a8b?page=2' });
    expect(ok.json()).toEqual({ data: { id: '7d9f3f4e-1f1a-4c1e-9a0b-3c2d1e0f9a8b', page: 2 } });
    const bad = await app.inject({ url: '/things/not-an-id' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('path field "id" must be a valid id');
  });

  it('answers 404 in the error shape', async () => {
    const res = await app.inject({ url: '/things/00000000-0000-4000-8000-000000000000' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found', message: 'Thing not found' });
    const route = await app.inject({ url: '/nowhere' });
    expect(route.json()).toMatchObject({ statusCode: 404, message: 'Route GET /nowhere not found' });
  });

  it("sends an exposed error's own status and message, never its cause", async () => {
    const res = await app.inject({ url: '/unavailable' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'The database is not answering right now; please try again shortly',
      code: 'DATABASE_UNAVAILABLE',
    });
    expect(res.body).not.toContain('10.0.0.5');
  });

  it('hides internal error details', async () => {
    const res = await app.inject({ url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret internal detail');
  });

  it('passes request ids through and makes one otherwise', async () => {
    const given = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const made = await app.inject({ url: '/healthz' });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports health and readiness', async () => {
    expect((await app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok', service: 'test' });
    expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
    const down = buildApp(false);
    const res = await down.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json().checks).toEqual({ db: 'db down' });
    await down.close();
  });

  describe('admin routes', () => {
    const call = (authorization?: string) => app.inject({ url: '/admin-only', headers: authorization ? { authorization } : {} });

    it('let a valid token through', async () => {
      const res = await call(`Bearer ${mintAdminToken({ subject: 'admin-1' })}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { sub: 'admin-1' } });
    });

    it.each([
      ['no token', undefined],
      ['a malformed header', 'Token abc'],
      ['an expired token', `Bearer ${mintAdminToken({ expiresAt: Math.floor(Date.now() / 1000) - 10 })}`],
      ['a token signed with another key', `Bearer ${mintAdminToken({ secret: 'another-secret-that-is-also-long-enough-000' })}`],
      ['an alg:none token', `Bearer ${unsignedToken()}`],
      ['a revoked token', `Bearer ${mintAdminToken({ jti: 'revoked-jti' })}`],
    ])('answer 401 to %s', async (_label, header) => {
      const res = await call(header);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toEqual(expect.any(String));
    });
  });
});

describe('union errors', () => {
  it('name the allowed values of a union of literals', async () => {
    const app = createServiceApp({ name: 'u', logger: false });
    app.post('/x', { schema: { body: Type.Object({ kind: Type.Union([Type.Literal('a'), Type.Literal('b')]) }) } }, async () => ({}));
    const res = await app.inject({ method: 'POST', url: '/x', payload: { kind: 'c' } });
    expect(res.json().message).toBe('body field "kind" must be one of: a, b');
    await app.close();
  });
});

describe('sessionRevocationCheck', () => {
  it('asks the admin service, and refuses to guess when it cannot', async () => {
    const Fastify = (await import('fastify')).default;
    const admin = Fastify();
    admin.get('/internal/sessions/:jti', async (request, reply) => {
      if (request.headers['x-internal-token'] !== 'tok') return reply.status(401).send({});
      return (request.params as { jti: string }).jti === 'live' ? { data: { active: true } } : reply.status(404).send({});
    });
    const url = await admin.listen({ port: 0, host: '127.0.0.1' });
    const check = sessionRevocationCheck(url, 'tok');
    expect(await check('live')).toBe(false);
    expect(await check('gone')).toBe(true);
    await expect(sessionRevocationCheck(url, 'wrong')('live')).rejects.toMatchObject({ statusCode: 503 });
    await admin.close();
    await expect(check('live')).rejects.toMatchObject({ statusCode: 503 });
  });
});
