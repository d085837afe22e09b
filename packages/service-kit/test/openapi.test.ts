import { randomUUID } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { ErrorBody, IdParams, NoQuery } from '@persona/contracts';
import { type AnswerChecker, openApiValidatorsFile, recordRoutes, routeSchemaProblems } from '@persona/test-kit';
import { createServiceApp, type ServiceApp } from '../src';

async function describedApp(): Promise<ServiceApp> {
  const app = createServiceApp({ name: 'shelf', logger: false });
  await app.register(async (plugin) => {
    const scope = plugin as ServiceApp;
    scope.get(
      '/api/books/:id',
      { schema: { params: IdParams, querystring: NoQuery, response: { 200: Type.Object({ id: Type.String({ format: 'uuid' }) }), 404: ErrorBody } } },
      async (request) => ({ id: request.params.id === '00000000-0000-4000-8000-000000000000' ? 'not-a-uuid' : request.params.id }),
    );
    scope.delete(
      '/api/books/:id',
      { schema: { params: IdParams, querystring: NoQuery, response: { 200: Type.Object({ gone: Type.Boolean() }) } } },
      // The handler's bug under test: text where the schema says JSON.
      async (_r, reply) => reply.type('text/plain').send('gone' as unknown as { gone: boolean }),
    );
    scope.post('/api/loose', async () => ({ ok: true }));
  });
  return app;
}

describe("a service's OpenAPI document", () => {
  let app: ServiceApp;
  beforeAll(async () => {
    app = await describedApp();
  });
  afterAll(() => app.close());

  it('is OpenAPI 3.1 from its routes, admin routes tagged and needing the admin token, any other status in the error shape', async () => {
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Persona Books: shelf');
    const read = doc.paths['/api/books/{id}'].get;
    expect(read.tags).toEqual(['books']);
    expect(read.security).toBeUndefined();
    expect(read.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'id', required: true })]);
    expect(read.responses['200'].content['application/json'].schema.properties.id).toEqual({ type: 'string', format: 'uuid' });
    expect(read.responses.default.content['application/json'].schema.required).toEqual(['statusCode', 'error', 'message']);
    // DELETE /api/books/:id needs an administrator (ADMIN_ROUTES).
    expect(doc.paths['/api/books/{id}'].delete).toMatchObject({ tags: ['books', 'admin'], security: [{ adminToken: [] }] });
    expect(doc.components.securitySchemes.adminToken).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    // The skeleton's routes are described; the document itself is not.
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz', '/metrics']));
    expect(doc.paths['/openapi.json']).toBeUndefined();
  });

  it('holds every inject answer to it: a body off its schema, or a content type it does not list, rejects naming the route', async () => {
    const good = await app.inject({ method: 'GET', url: '/api/books/6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c' });
    expect(good.statusCode).toBe(200);
    // A 400 is not listed: the document's default, the error shape, holds it.
    expect((await app.inject({ method: 'GET', url: '/api/books/nope' })).statusCode).toBe(400);
    await expect(app.inject({ method: 'GET', url: '/api/books/00000000-0000-4000-8000-000000000000' })).rejects.toThrow(
      /GET \/api\/books\/:id answered 200 with a body that does not match the OpenAPI document: \/id must match format "uuid"/,
    );
    await expect(app.inject({ method: 'DELETE', url: '/api/books/6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c' })).rejects.toThrow(
      /DELETE \/api\/books\/:id answered 200 as text\/plain, where the OpenAPI document says application\/json/,
    );
  });

  it('holds a second app to its own document: the same document shares its checks, another has its own', async () => {
    const again = await describedApp();
    // Another service whose book ids are any string: the first document's uuid format is not its rule.
    const other = createServiceApp({ name: 'loose-shelf', logger: false });
    other.get(
      '/api/books/:id',
      { schema: { params: Type.Object({ id: Type.String() }), querystring: NoQuery, response: { 200: Type.Object({ id: Type.String() }) } } },
      async () => ({ id: 'not-a-uuid' }),
    );
    try {
      await expect(again.inject({ method: 'GET', url: '/api/books/00000000-0000-4000-8000-000000000000' })).rejects.toThrow(/\/id must match format "uuid"/);
      expect((await other.inject({ method: 'GET', url: '/api/books/00000000-0000-4000-8000-000000000000' })).json()).toEqual({ id: 'not-a-uuid' });
    } finally {
      await again.close();
      await other.close();
    }
  });
});

describe("the checks' validators, kept between test files", () => {
  it('are written once for a document and loaded by the next file, which holds answers to them the same', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'kept', version: '1' },
      // A document no other test has: its validators are compiled here first.
      paths: {
        [`/api/kept/${randomUUID()}`]: {
          get: { responses: { 200: { content: { 'application/json': { schema: Type.Object({ id: Type.String({ format: 'uuid' }) }) } } } } },
        },
      },
    };
    const route = Object.keys(document.paths)[0]!;
    const answer = (id: string) => ({ method: 'GET', route, statusCode: 200, contentType: 'application/json', body: JSON.stringify({ id }) });
    const file = openApiValidatorsFile(document);
    const checkers: AnswerChecker[] = [];
    const written: number[] = [];
    try {
      for (let pass = 0; pass < 2; pass++) {
        // Each pass is a test file of its own: a fresh module registry, nothing kept in memory.
        jest.isolateModules(() => {
          const kit = jest.requireActual<{ AnswerChecker: typeof AnswerChecker }>('@persona/test-kit');
          checkers.push(new kit.AnswerChecker(document));
        });
        written.push(statSync(file).ino);
      }
    } finally {
      rmSync(file, { force: true });
    }
    // The file the first pass wrote, not written again by the second (a rewrite renames a new file into place).
    expect(written[1]).toBe(written[0]);
    for (const checker of checkers) {
      expect(checker.problem(answer(randomUUID()))).toBeNull();
      expect(checker.problem(answer('not-a-uuid'))).toMatch(/does not match the OpenAPI document: \/id must match format "uuid"/);
    }
  });
});

describe('routeSchemaProblems', () => {
  it("names each route without a response schema, or without the params, query or body schema it takes, and passes the skeleton's own", async () => {
    const { built, routes } = await recordRoutes(async () => {
      const app = await describedApp();
      await app.ready();
      return app;
    });
    await built.close();
    expect(routeSchemaProblems(routes)).toEqual([
      'POST /api/loose: no body schema',
      'POST /api/loose: no querystring schema',
      'POST /api/loose: no response schema',
    ]);
  });
});
