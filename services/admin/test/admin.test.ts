import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { createEvent, type EventBus } from '@persona/bus';
import type { Database } from '@persona/db';
import { mintAdminToken, unsignedToken } from '@persona/test-kit';
import { adminConfig } from '../src/config';
import type { AdminDB } from '../src/db';
import { subscribersCsv } from '../src/modules/newsletter/subscribers.mapper';
import { subscriberBatches } from '../src/modules/newsletter/subscribers.repository';
import { waitAfterFailures } from '../src/modules/auth/login';
import { hashPassword, verifyPassword } from '../src/modules/auth/passwords';
import type { AdminService } from '../src/service';
import { INTERNAL_TOKEN, startAdminHarness } from './support';

const INTERNAL = INTERNAL_TOKEN;
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
      (request.params as { id: string }).id === BOOK_ID
        ? { data: { _id: BOOK_ID, title: 'Gitanjali' } }
        : reply.status(404).send({ message: 'Book not found' }),
    );
    const catalogueUrl = await catalogue.listen({ port: 0, host: '127.0.0.1' });
    const h = await startAdminHarness('pglite', { catalogueUrl, loginsPerMinute: 1000, postsPerMinute: 1000 });
    ({ service, bus, database } = h);
    close = async () => {
      await h.close();
      await catalogue.close();
    };
  }, 60_000);
  afterAll(() => close());

  const inject = (opts: InjectOptions) => service.app.inject(opts);
  const login = (email = 'owner@persona-books.in', password = 'correct horse battery') =>
    inject({ method: 'POST', url: '/api/admin/login', payload: { email, password } });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  describe('logging in and out', () => {
    it('logs in and answers the token and the admin label', async () => {
      const res = await login('OWNER@persona-books.in');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        data: { token: expect.any(String), admin: { name: 'Asha Owner', email: 'owner@persona-books.in' } },
        message: 'Login successful',
      });
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
      await database.db
        .insertInto('admins')
        .values({ name: 'Target', email: 'target@persona-books.in', password_hash: await hashPassword('right password') })
        .execute();
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
      const aboutBook = await inject({
        method: 'POST',
        url: '/api/feedback',
        payload: { name: 'Ravi', email: 'ravi@example.com', message: 'More Tagore please', bookId: BOOK_ID },
      });
      expect(aboutBook.json().data.bookId).toEqual({ _id: BOOK_ID, title: 'Gitanjali' });
      const list = await inject({ url: '/api/feedback/all', headers: bearer(token) });
      expect(list.json().data.map((f: { message: string }) => f.message)).toEqual(['More Tagore please', 'Lovely shop!']);
      const id = general.json().data._id;
      expect((await inject({ method: 'DELETE', url: `/api/feedback/${id}`, headers: bearer(token) })).json()).toEqual({
        message: 'Feedback deleted successfully',
      });
      expect((await inject({ method: 'DELETE', url: `/api/feedback/${id}`, headers: bearer(token) })).statusCode).toBe(404);
    });

    it.each([
      [{ name: 'A', email: 'a@b.co', message: 'hi', bookId: randomUUID() }, 400, 'The book this message is about does not exist'],
      [{ name: 'A', email: 'nope', message: 'hi' }, 400, 'body field "email" must be a valid email'],
      [{ name: '  ', email: 'a@b.co', message: 'hi' }, 400, 'body field "name" must not be blank'],
      [{ name: 'A', email: 'a@b.co', message: 'hi', _id: randomUUID() }, 400, 'body field "_id" is not allowed'],
    ])('refuses %j and stores nothing', async (payload, status, message) => {
      const before = await database.db
        .selectFrom('feedback')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const res = await inject({ method: 'POST', url: '/api/feedback', payload });
      expect(res.statusCode).toBe(status);
      expect(res.json().message).toBe(message);
      const after = await database.db
        .selectFrom('feedback')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    });

    it('keeps the list and delete for administrators', async () => {
      expect((await inject({ url: '/api/feedback/all' })).statusCode).toBe(401);
      expect((await inject({ method: 'DELETE', url: `/api/feedback/${randomUUID()}` })).statusCode).toBe(401);
    });

    it('lists a page at a time, newest first, with the total', async () => {
      await database.db
        .insertInto('feedback')
        .values(
          ['2030-01-01T00:00:01Z', '2030-01-01T00:00:03Z', '2030-01-01T00:00:02Z'].map((at, i) => ({
            name: `Paged ${i}`,
            email: 'p@example.com',
            message: `at ${at}`,
            created_at: at,
          })),
        )
        .execute();
      const { n: total } = await database.db
        .selectFrom('feedback')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const first = await inject({ url: '/api/feedback/all?limit=2', headers: bearer(token) });
      expect(first.statusCode).toBe(200);
      expect(first.json().meta).toEqual({ total: Number(total), page: 1, limit: 2, next: expect.any(String), prev: null });
      expect(first.json().data.map((f: { message: string }) => f.message)).toEqual(['at 2030-01-01T00:00:03Z', 'at 2030-01-01T00:00:02Z']);
      const second = (await inject({ url: '/api/feedback/all?limit=2&page=2', headers: bearer(token) })).json();
      expect(second.data[0].message).toBe('at 2030-01-01T00:00:01Z');
      expect(second.meta).toMatchObject({ total: Number(total), page: 2, limit: 2 });
      const beyond = (await inject({ url: '/api/feedback/all?limit=2&page=999', headers: bearer(token) })).json();
      expect(beyond).toEqual({ data: [], meta: { total: Number(total), page: 999, limit: 2, next: null, prev: null } });
      expect((await inject({ url: '/api/feedback/all', headers: bearer(token) })).json().meta).toMatchObject({
        total: Number(total),
        page: 1,
        limit: 24,
        prev: null,
      });
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

    it('lists subscribers a page at a time, newest first, with the total', async () => {
      await database.db
        .insertInto('subscribers')
        .values([
          { email: 'old@example.com', subscribed_at: '2031-01-01T00:00:00Z' },
          { email: 'newest@example.com', subscribed_at: '2031-01-03T00:00:00Z' },
          { email: 'middle@example.com', subscribed_at: '2031-01-02T00:00:00Z' },
        ])
        .execute();
      const { n } = await database.db
        .selectFrom('subscribers')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const { token } = (await login()).json().data;
      const page = (await inject({ url: '/api/admin/subscribers?page=1&limit=2', headers: bearer(token) })).json();
      expect(page).toEqual({
        data: [
          { email: 'newest@example.com', subscribedAt: '2031-01-03T00:00:00.000Z' },
          { email: 'middle@example.com', subscribedAt: '2031-01-02T00:00:00.000Z' },
        ],
        meta: { total: Number(n), page: 1, limit: 2, next: expect.any(String), prev: null },
      });
      expect((await inject({ url: '/api/admin/subscribers?page=2&limit=2', headers: bearer(token) })).json().data[0].email).toBe('old@example.com');
    });

    it('exports every subscriber as a CSV attachment, with formulas defused', async () => {
      // A valid e-mail address can start with "=", "+" or "-": exactly what a spreadsheet would run.
      expect((await inject({ method: 'POST', url: '/api/newsletter/subscribe', payload: { email: '=1+2@example.com' } })).statusCode).toBe(200);
      expect((await inject({ method: 'POST', url: '/api/newsletter/subscribe', payload: { email: '-x@example.com' } })).statusCode).toBe(200);
      const { token } = (await login()).json().data;
      const res = await inject({ url: '/api/admin/subscribers/export', headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="subscribers.csv"');
      expect(res.headers['cache-control']).toBe('no-store');
      const rows = await database.db.selectFrom('subscribers').selectAll().orderBy('subscribed_at', 'desc').orderBy('email', 'desc').execute();
      const lines = res.body.split('\r\n');
      expect(lines[0]).toBe('Email,Subscribed At');
      expect(lines.at(-1)).toBe('');
      expect(lines.slice(1, -1)).toEqual(rows.map((r) => `${/^[=+\-@]/.test(r.email) ? "'" : ''}${r.email},${r.subscribed_at.toISOString()}`));
      expect(lines).toContain(`'=1+2@example.com,${rows.find((r) => r.email === '=1+2@example.com')!.subscribed_at.toISOString()}`);
      expect(lines.filter((l) => l.startsWith('-') || l.startsWith('='))).toEqual([]);
    });

    it('exports in batches without losing or repeating anyone, even on equal timestamps', async () => {
      // Equal microsecond timestamps: the cursor must not lose precision to a JavaScript Date.
      await database.db
        .insertInto('subscribers')
        .values(['tie-a@example.com', 'tie-b@example.com', 'tie-c@example.com'].map((email) => ({ email, subscribed_at: '2020-06-01T10:00:00.123456Z' })))
        .execute();
      const all = await database.db.selectFrom('subscribers').select('email').execute();
      const chunks: string[] = [];
      for await (const chunk of subscribersCsv(subscriberBatches(database.db, 2))) chunks.push(chunk);
      expect(all.length).toBeGreaterThan(4);
      expect(chunks).toHaveLength(Math.ceil(all.length / 2));
      const whole: string[] = [];
      for await (const chunk of subscribersCsv(subscriberBatches(database.db))) whole.push(chunk);
      expect(whole).toHaveLength(1);
      expect(chunks.join('')).toBe(whole[0]);
      const emails = whole[0]
        .split('\r\n')
        .slice(1, -1)
        .map((l) => l.split(',')[0].replace(/^'/, ''));
      expect(emails.sort()).toEqual(all.map((r) => r.email).sort());
    });

    it('exports only the header when nobody has subscribed', async () => {
      const rollback = new Error('rollback');
      const chunks: string[] = [];
      await expect(
        database.db.transaction().execute(async (trx) => {
          await trx.deleteFrom('subscribers').execute();
          for await (const chunk of subscribersCsv(subscriberBatches(trx))) chunks.push(chunk);
          throw rollback;
        }),
      ).rejects.toBe(rollback);
      expect(chunks).toEqual(['Email,Subscribed At\r\n']);
    });

    it('keeps the list and the export for administrators', async () => {
      for (const url of ['/api/admin/subscribers', '/api/admin/subscribers/export']) {
        const res = await inject({ url });
        expect(res.statusCode).toBe(401);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.json().message).toBe('Authentication required: send an admin token as "Authorization: Bearer <token>"');
      }
    });
  });

  describe('the audit log', () => {
    it('records each event once with its correlation id, including logins, newest first', async () => {
      const event = createEvent(
        'book.created',
        { bookId: BOOK_ID, title: 'Gitanjali', author: 'Rabindranath Tagore', pricePaise: 34950, categoryId: null },
        { correlationId: 'c' },
      );
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
      expect(entries.filter((e) => e.type === 'book.created')).toEqual([
        expect.objectContaining({ summary: 'Book "Gitanjali" by Rabindranath Tagore created at ₹349.50', correlationId: 'c' }),
      ]);
      expect(entries.some((e) => e.type === 'admin.logged_in' && e.summary === 'owner@persona-books.in logged in')).toBe(true);
      expect((await inject({ url: '/api/admin/audit' })).statusCode).toBe(401);
    }, 30_000);

    it("says who: an administrator's change names them, the shop's own work names no one", async () => {
      const { token } = (await login()).json().data;
      const actor = { id: randomUUID(), email: 'editor@persona-books.in' };
      const byAdmin = createEvent('category.updated', { categoryId: randomUUID(), name: 'Poetry' }, { correlationId: 'who-1', actor });
      const orderId = randomUUID();
      const noted = createEvent('order.note_added', { orderId, personaId: 'PRS-0000-0000-0000-0002', noteId: randomUUID() }, { correlationId: 'who-3', actor });
      const resent = createEvent(
        'order.email_resent',
        { orderId, personaId: 'PRS-0000-0000-0000-0002', emailId: randomUUID(), kind: 'persona-ready', to: 'zoe@example.com' },
        { correlationId: 'who-4', actor },
      );
      await bus.publish(noted);
      await bus.publish(resent);
      const byShop = createEvent(
        'persona.failed',
        { orderId: randomUUID(), personaId: 'PRS-0000-0000-0000-0001', reason: 'font missing' },
        { correlationId: 'who-2' },
      );
      await bus.publish(byAdmin);
      await bus.publish(byShop);
      // Deleting a visitor's message is audited too, naming the administrator whose token it was.
      const message = await inject({ method: 'POST', url: '/api/feedback', payload: { name: 'Kiran', email: 'kiran@example.com', message: 'Hello' } });
      const feedbackId = message.json().data._id;
      expect((await inject({ method: 'DELETE', url: `/api/feedback/${feedbackId}`, headers: bearer(token) })).statusCode).toBe(200);

      type Entry = { type: string; summary: string; actor: string | null; correlationId: string | null; subjectId: string | null };
      let entries: Entry[] = [];
      for (let i = 0; i < 100; i += 1) {
        entries = (await inject({ url: '/api/admin/audit?limit=100', headers: bearer(token) })).json().data;
        if (['who-1', 'who-2', 'who-3', 'who-4'].every((c) => entries.some((e) => e.correlationId === c)) && entries.some((e) => e.type === 'feedback.deleted'))
          break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(entries.find((e) => e.correlationId === 'who-1')).toMatchObject({ summary: 'Category "Poetry" updated', actor: 'editor@persona-books.in' });
      expect(entries.find((e) => e.correlationId === 'who-2')).toMatchObject({ actor: null });
      // The order page's actions: on the order's timeline, with who.
      expect(entries.find((e) => e.correlationId === 'who-3')).toMatchObject({
        summary: 'Note added to order PRS-0000-0000-0000-0002',
        subjectId: orderId,
        actor: 'editor@persona-books.in',
      });
      expect(entries.find((e) => e.correlationId === 'who-4')).toMatchObject({
        summary: 'E-mail "persona-ready" of order PRS-0000-0000-0000-0002 sent again to zoe@example.com',
        subjectId: orderId,
      });
      expect(entries.find((e) => e.type === 'feedback.deleted')).toMatchObject({
        summary: 'Message from Kiran deleted',
        subjectId: feedbackId,
        actor: 'owner@persona-books.in',
      });
    }, 30_000);
  });

  describe('coupon codes in the audit log', () => {
    it("records a code's creation and each change, with who, on the code's own timeline", async () => {
      const { token } = (await login()).json().data;
      const actor = { id: randomUUID(), email: 'owner@persona-books.in' };
      const couponId = randomUUID();
      await bus.publish(createEvent('coupon.created', { couponId, code: 'LAUNCH-25', offer: '25% off', active: true }, { correlationId: 'coupon-1', actor }));
      await bus.publish(
        createEvent('coupon.updated', { couponId, code: 'LAUNCH-25', offer: '₹100.00 off', active: false }, { correlationId: 'coupon-2', actor }),
      );
      type Entry = { summary: string; actor: string | null; correlationId: string | null; subjectId: string | null };
      let entries: Entry[] = [];
      for (let i = 0; i < 100; i += 1) {
        entries = (await inject({ url: `/api/admin/audit?limit=100&subject=${couponId}`, headers: bearer(token) })).json().data;
        if (entries.length === 2) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(entries.map((e) => [e.correlationId, e.summary, e.actor, e.subjectId])).toEqual([
        ['coupon-2', 'Coupon LAUNCH-25 changed: ₹100.00 off, inactive', 'owner@persona-books.in', couponId],
        ['coupon-1', 'Coupon LAUNCH-25 created: 25% off, active', 'owner@persona-books.in', couponId],
      ]);
    }, 30_000);
  });

  describe('bad input on the admin routes', () => {
    let token: string;
    beforeAll(async () => {
      token = (await login()).json().data.token;
    });
    const counts = async () => ({
      feedback: Number(
        (
          await database.db
            .selectFrom('feedback')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      subscribers: Number(
        (
          await database.db
            .selectFrom('subscribers')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      sessions: Number(
        (
          await database.db
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    });

    it.each(['not-a-uuid', '123', '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5', '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5cz'])(
      'refuses to delete feedback %s with 400, deleting nothing',
      async (id) => {
        const before = await counts();
        const res = await inject({ method: 'DELETE', url: `/api/feedback/${id}`, headers: bearer(token) });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'path field "id" must be a valid id' });
        expect(await counts()).toEqual(before);
      },
    );

    const LISTS = ['/api/feedback/all', '/api/admin/subscribers', '/api/admin/audit'];
    it.each(
      LISTS.flatMap((url) => [
        [url, '?limit=0', 'query field "limit" must be >= 1'],
        [url, '?limit=101', 'query field "limit" must be <= 100'],
        [url, '?limit=abc', 'query field "limit" must be integer'],
        [url, '?limit=2.5', 'query field "limit" must be integer'],
        [url, '?page=-1', 'query field "page" must be >= 1'],
        [url, '?page=0', 'query field "page" must be >= 1'],
        [url, '?page=1&sort=email', 'query field "sort" is not allowed'],
        [url, '?admin=true', 'query field "admin" is not allowed'],
      ]),
    )('%s%s → 400 "%s", nothing written', async (url, query, message) => {
      const before = await counts();
      const res = await inject({ url: `${url}${query}`, headers: bearer(token) });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
      expect(await counts()).toEqual(before);
    });

    it('refuses any query on the export', async () => {
      const res = await inject({ url: '/api/admin/subscribers/export?format=xlsx', headers: bearer(token) });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json().message).toBe('query field "format" is not allowed');
    });

    it.each([
      ['GET', '/api/feedback/all?limit=abc'],
      ['DELETE', '/api/feedback/not-a-uuid'],
      ['GET', '/api/admin/subscribers?page=-1'],
      ['GET', '/api/admin/subscribers/export?format=xlsx'],
      ['GET', '/api/admin/audit?unknown=1'],
    ] as const)('checks the token before the input: %s %s without one is 401', async (method, url) => {
      const res = await inject({ method, url });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toMatch(/^Authentication required/);
    });
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
    const env = { DATABASE_URL: 'postgres://x', AMQP_URL: 'amqp://x', JWT_SECRET: 'x'.repeat(32), INTERNAL_TOKEN: 'y'.repeat(32), CATALOGUE_URL: 'http://c' };
    expect(adminConfig.loadProcess({ ...env, ADMIN_EMAIL: 'owner@persona-books.in', ADMIN_PASSWORD: 'long enough password' }).ADMIN_EMAIL).toBe(
      'owner@persona-books.in',
    );
    expect(() => adminConfig.loadProcess({ ...env, ADMIN_EMAIL: 'owner' })).toThrow(/ADMIN_EMAIL="owner"/);
  });
});
