import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { createEvent, createInProcessBus, type EventBus } from '@persona/bus';
import { openDatabase, openPglite, type Database } from '@persona/db';
import { createLogger } from '@persona/service-kit';
import { mintAdminToken, TEST_JWT_SECRET, unsignedToken } from '@persona/test-kit';
import type { AdminDB } from '../src/db';
import { waitAfterFailures } from '../src/modules/auth/login';
import { hashPassword, verifyPassword } from '../src/modules/auth/passwords';
import { startAdminService, type AdminService } from '../src/service';

const INTERNAL = 'internal-token-internal-token-internal-00';
const BOOK_ID = '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c';

describe('the admin service', () => {
  let service: AdminService;
  let bus: EventBus;
  let database: Database<AdminDB>;
  let catalogue: FastifyInstance;
  let close: () => Promise<void>;

  beforeAll(async () => {
    catalogue = Fastify();
    catalogue.get('/api/books/:id', async (request, reply) =>
      (request.params as { id: string }).id === BOOK_ID ? { data: { _id: BOOK_ID, title: 'Gitanjali' } } : reply.status(404).send({ message: 'Book not found' }),
    );
    const catalogueUrl = await catalogue.listen({ port: 0, host: '127.0.0.1' });
    const shared = await openPglite();
    const logger = createLogger('admin-test', 'silent');
    database = openDatabase<AdminDB>({ kind: 'pglite', shared }, 'admin');
    bus = createInProcessBus({ database: openDatabase({ kind: 'pglite', shared }, 'bus'), logger, pollIntervalMs: 50 });
    service = await startAdminService({
      database,
      bus,
      logger,
      jwtSecret: TEST_JWT_SECRET,
      internalToken: INTERNAL,
      catalogueUrl,
      firstAdmin: { email: 'owner@persona-books.in', password: 'correct horse battery', name: 'Asha Owner', generate: false },
      loginsPerMinute: 1000,
      postsPerMinute: 1000,
    });
    close = async () => {
      await service.close();
      await bus.close();
      await shared.close();
      await catalogue.close();
    };
  }, 60_000);
  afterAll(() => close());

  const inject = (opts: InjectOptions) => service.app.inject(opts);
  const login = (email = 'owner@persona-books.in', password = 'correct horse battery') => inject({ method: 'POST', url: '/api/admin/login', payload: { email, password } });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  describe('logging in and out', () => {
    it('logs in and answers the token and the admin label', async () => {
      const res = await login('OWNER@persona-books.in');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ data: { token: expect.any(String), admin: { name: 'Asha Owner', email: 'owner@persona-books.in' } }, message: 'Login successful' });
      const me = await inject({ url: '/api/admin/me', headers: bearer(res.json().data.token) });
      expect(me.json().data).toEqual({ name: 'Asha Owner', email: 'owner@persona-books.in' });
    });

    it.each([
      ['a wrong password', 'owner@persona-books.in', 'wrong password'],
      ['an unknown e-mail', 'nobody@persona-books.in', 'correct horse battery'],
    ])('refuses %s with 401 "Invalid credentials"', async (_label, email, password) => {
      const res = await login(email, password);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Invalid credentials');
    });

    it.each([
      [{ email: 'not-an-email', password: 'x' }, 'body field "email" must be a valid email'],
      [{ email: 'a@b.co' }, 'body field "password" is required'],
      [{ email: 'a@b.co', password: 'x', role: 'owner' }, 'body field "role" is not allowed'],
    ])('refuses a bad login body %j with 400', async (payload, message) => {
      const res = await inject({ method: 'POST', url: '/api/admin/login', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    });

    it('makes a logged-out token unusable at once, here and through the internal session check', async () => {
      const { token } = (await login()).json().data;
      const jti = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).jti;
      expect((await inject({ url: `/internal/sessions/${jti}`, headers: { 'x-internal-token': INTERNAL } })).statusCode).toBe(200);
      expect((await inject({ method: 'POST', url: '/api/admin/logout', headers: bearer(token) })).json()).toEqual({ message: 'Logged out' });
      expect((await inject({ url: '/api/admin/me', headers: bearer(token) })).statusCode).toBe(401);
      expect((await inject({ url: `/internal/sessions/${jti}`, headers: { 'x-internal-token': INTERNAL } })).statusCode).toBe(404);
      expect((await inject({ url: `/internal/sessions/${jti}`, headers: { 'x-internal-token': 'wrong' } })).statusCode).toBe(401);
    });

    it.each([
      ['no token', {}],
      ['an expired token', bearer(mintAdminToken({ expiresAt: 1000 }))],
      ['a token signed by another key', bearer(mintAdminToken({ secret: 'another-secret-that-is-also-long-enough-000' }))],
      ['an alg:none token', bearer(unsignedToken())],
      ['a well-signed token with no session', bearer(mintAdminToken())],
    ])('answers 401 to %s', async (_label, headers) => {
      expect((await inject({ url: '/api/admin/me', headers })).statusCode).toBe(401);
    });

    it('slows an account down after repeated failures', async () => {
      expect([0, 1, 4].map(waitAfterFailures)).toEqual([0, 0, 0]);
      expect(waitAfterFailures(5)).toBe(30);
      expect(waitAfterFailures(20)).toBe(900);
      await database.db.insertInto('admins').values({ name: 'Target', email: 'target@persona-books.in', password_hash: await hashPassword('right password') }).execute();
      const codes = [];
      for (let i = 0; i < 6; i += 1) codes.push((await login('target@persona-books.in', 'wrong')).statusCode);
      expect(codes).toEqual([401, 401, 401, 401, 401, 429]);
      const slowed = await login('target@persona-books.in', 'right password');
      expect(slowed.statusCode).toBe(429);
      expect(slowed.json().message).toMatch(/^Too many failed logins; please try again in \d+ seconds$/);
    });
  });

  describe('feedback', () => {
    let token: string;
    beforeAll(async () => {
      token = (await login()).json().data.token;
    });

    it('takes a general message and a message about a book, which admins list and delete', async () => {
      const general = await inject({ method: 'POST', url: '/api/feedback', payload: { name: 'Meera', email: 'meera@example.com', message: 'Lovely shop!' } });
      expect(general.statusCode).toBe(201);
      expect(general.json().data).toMatchObject({ name: 'Meera', bookId: null });
      const aboutBook = await inject({ method: 'POST', url: '/api/feedback', payload: { name: 'Ravi', email: 'ravi@example.com', message: 'More Tagore please', bookId: BOOK_ID } });
      expect(aboutBook.json().data.bookId).toEqual({ _id: BOOK_ID, title: 'Gitanjali' });
      const list = await inject({ url: '/api/feedback/all', headers: bearer(token) });
      expect(list.json().data.map((f: { message: string }) => f.message)).toEqual(['More Tagore please', 'Lovely shop!']);
      const id = general.json().data._id;
      expect((await inject({ method: 'DELETE', url: `/api/feedback/${id}`, headers: bearer(token) })).json()).toEqual({ message: 'Feedback deleted successfully' });
      expect((await inject({ method: 'DELETE', url: `/api/feedback/${id}`, headers: bearer(token) })).statusCode).toBe(404);
    });

    it.each([
      [{ name: 'A', email: 'a@b.co', message: 'hi', bookId: randomUUID() }, 400, 'The book this message is about does not exist'],
      [{ name: 'A', email: 'nope', message: 'hi' }, 400, 'body field "email" must be a valid email'],
      [{ name: '  ', email: 'a@b.co', message: 'hi' }, 400, 'body field "name" must not be blank'],
      [{ name: 'A', email: 'a@b.co', message: 'hi', _id: randomUUID() }, 400, 'body field "_id" is not allowed'],
    ])('refuses %j and stores nothing', async (payload, status, message) => {
      const before = await database.db.selectFrom('feedback').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const res = await inject({ method: 'POST', url: '/api/feedback', payload });
      expect(res.statusCode).toBe(status);
      expect(res.json().message).toBe(message);
      const after = await database.db.selectFrom('feedback').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    });

    it('keeps the list and delete for administrators', async () => {
      expect((await inject({ url: '/api/feedback/all' })).statusCode).toBe(401);
      expect((await inject({ method: 'DELETE', url: `/api/feedback/${randomUUID()}` })).statusCode).toBe(401);
    });
  });

  describe('newsletter', () => {
    it('subscribes an e-mail once, whatever its case', async () => {
      const first = await inject({ method: 'POST', url: '/api/newsletter/subscribe', payload: { email: 'Reader@Example.com' } });
      const again = await inject({ method: 'POST', url: '/api/newsletter/subscribe', payload: { email: 'reader@example.com' } });
      expect(first.json()).toEqual({ message: 'Thank you for subscribing!' });
      expect(again.json()).toEqual({ message: 'You are already subscribed.' });
      const { token } = (await login()).json().data;
      const list = (await inject({ url: '/api/admin/subscribers', headers: bearer(token) })).json().data;
      expect(list.filter((s: { email: string }) => s.email === 'reader@example.com')).toHaveLength(1);
      expect((await inject({ method: 'POST', url: '/api/newsletter/subscribe', payload: { email: 'not-an-email' } })).statusCode).toBe(400);
    });
  });

  describe('the audit log', () => {
    it('records each event once, including logins, newest first', async () => {
      const event = createEvent('book.created', { bookId: BOOK_ID, title: 'Gitanjali', author: 'Rabindranath Tagore', pricePaise: 34950, categoryId: null }, { correlationId: 'c' });
      await bus.publish(event);
      await bus.publish(event);
      await login();
      const { token } = (await login()).json().data;
      let entries: Array<{ type: string; summary: string }> = [];
      for (let i = 0; i < 100; i += 1) {
        entries = (await inject({ url: '/api/admin/audit?limit=100', headers: bearer(token) })).json().data;
        if (entries.some((e) => e.type === 'book.created') && entries.some((e) => e.type === 'admin.logged_in')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(entries.filter((e) => e.type === 'book.created')).toEqual([expect.objectContaining({ summary: 'Book "Gitanjali" by Rabindranath Tagore created at ₹349.50' })]);
      expect(entries.some((e) => e.type === 'admin.logged_in' && e.summary === 'owner@persona-books.in logged in')).toBe(true);
      expect((await inject({ url: '/api/admin/audit' })).statusCode).toBe(401);
    }, 30_000);
  });
});

describe('passwords', () => {
  it('hash with scrypt and a salt, and verify only the right password', async () => {
    const a = await hashPassword('Zoë’s password');
    const b = await hashPassword('Zoë’s password');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('Zoë’s password', a)).toBe(true);
    expect(await verifyPassword('Zoe’s password', a)).toBe(false);
    expect(await verifyPassword('anything', 'garbage')).toBe(false);
  });
});

describe('configuration', () => {
  it('accepts an administrator e-mail and refuses a malformed one, naming the variable', async () => {
    const { loadAdminConfig } = await import('../src/config');
    const env = { DATABASE_URL: 'postgres://x', AMQP_URL: 'amqp://x', JWT_SECRET: 'x'.repeat(32), INTERNAL_TOKEN: 'y'.repeat(32), CATALOGUE_URL: 'http://c' };
    expect(loadAdminConfig({ ...env, ADMIN_EMAIL: 'owner@persona-books.in', ADMIN_PASSWORD: 'long enough password' }).ADMIN_EMAIL).toBe('owner@persona-books.in');
    expect(() => loadAdminConfig({ ...env, ADMIN_EMAIL: 'owner' })).toThrow(/ADMIN_EMAIL="owner"/);
  });
});
