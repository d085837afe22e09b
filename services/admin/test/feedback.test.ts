// A visitor's message dealt with (issue 24): marked handled with who and when, the list's
// "still waiting" view, and an answer e-mailed to the sender through feedback.answered (the orders
// service's mail relay sends it), audited; only administrators, and bad input changes nothing.
// On both databases.
import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import type { KnownEvent } from '@persona/bus';
import { describeWithPostgres } from '@persona/test-kit';
import { startAdminHarness, type AdminHarness } from './support';

function contract(kind: 'pglite' | 'postgres') {
  let h: AdminHarness;
  const admin = { authorization: '' };
  const answered: Array<KnownEvent<'feedback.answered'>> = [];

  beforeAll(async () => {
    h = await startAdminHarness(kind);
    await h.bus.subscribe({
      queue: `test.feedback-answers.${kind}`,
      bindings: ['feedback.answered'],
      handler: async (event) => {
        answered.push(event as KnownEvent<'feedback.answered'>);
      },
    });
    const login = await h.service.app.inject({
      method: 'POST',
      url: '/api/admin/login',
      payload: { email: 'owner@persona-books.in', password: 'correct horse battery' },
    });
    admin.authorization = `Bearer ${login.json().data.token}`;
  }, 60_000);
  afterAll(() => h.close());

  const inject = (opts: InjectOptions) => h.service.app.inject(opts);
  const send = async (name: string, message = 'Can I have my Persona printed in Hindi?') =>
    (await inject({ method: 'POST', url: '/api/feedback', payload: { name, email: `${name.toLowerCase()}@example.com`, message } })).json().data as {
      _id: string;
    };
  const row = (id: string) => h.database.db.selectFrom('feedback').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** The audit entries of one message and type, once there are `atLeast` (the audit consumer runs after the commit). */
  const auditOf = async (id: string, type: string, atLeast = 1) => {
    for (let i = 0; i < 100; i += 1) {
      const entries = (await inject({ url: '/api/admin/audit?limit=100', headers: admin })).json().data as Array<{
        type: string;
        summary: string;
        actor: string | null;
        subjectId: string | null;
      }>;
      const found = entries.filter((e) => e.subjectId === id && e.type === type);
      if (found.length >= atLeast) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    return [];
  };

  it('a new message waits; marking it handled says who and when, and it leaves the waiting list', async () => {
    const message = await send('Nandini');
    const fresh = (await inject({ url: '/api/feedback/all?state=unhandled&limit=100', headers: admin })).json();
    expect(fresh.data.find((f: { _id: string }) => f._id === message._id)).toMatchObject({ handled: null, answer: null });

    const before = Date.now();
    const res = await inject({ method: 'PATCH', url: `/api/feedback/${message._id}`, headers: admin, payload: { handled: true } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Marked as handled', data: { _id: message._id, handled: { by: 'owner@persona-books.in' }, answer: null } });
    expect(Date.parse(res.json().data.handled.at)).toBeGreaterThanOrEqual(before - 1000);

    const waiting = (await inject({ url: '/api/feedback/all?state=unhandled&limit=100', headers: admin })).json().data.map((f: { _id: string }) => f._id);
    const handled = (await inject({ url: '/api/feedback/all?state=handled&limit=100', headers: admin })).json().data.map((f: { _id: string }) => f._id);
    expect(waiting).not.toContain(message._id);
    expect(handled).toContain(message._id);
    expect(await auditOf(message._id, 'feedback.handled')).toEqual([
      expect.objectContaining({ summary: 'Message from Nandini marked handled', actor: 'owner@persona-books.in' }),
    ]);

    // Marked as it already is: nothing changes, nothing more is audited.
    const again = await inject({ method: 'PATCH', url: `/api/feedback/${message._id}`, headers: admin, payload: { handled: true } });
    expect(again.json().data.handled).toEqual(res.json().data.handled);
    // Waiting again.
    const back = await inject({ method: 'PATCH', url: `/api/feedback/${message._id}`, headers: admin, payload: { handled: false } });
    expect(back.json()).toMatchObject({ message: 'Marked as waiting', data: { handled: null } });
    expect((await row(message._id)).handled_by).toBeNull();
    expect((await auditOf(message._id, 'feedback.handled', 2)).map((e) => e.summary)).toEqual([
      'Message from Nandini marked waiting',
      'Message from Nandini marked handled',
    ]);
  });

  it("an answer goes to the sender's address through feedback.answered, once, and the message is handled", async () => {
    const message = await send('Farhan', 'Do you ship to Leh?');
    const res = await inject({
      method: 'POST',
      url: `/api/feedback/${message._id}/answer`,
      headers: admin,
      payload: { text: '  Yes, we ship across India, Leh included.  ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Your answer is on its way to farhan@example.com',
      data: {
        handled: { by: 'owner@persona-books.in' },
        answer: { text: 'Yes, we ship across India, Leh included.', by: 'owner@persona-books.in' },
      },
    });
    for (let i = 0; i < 100 && !answered.some((e) => e.payload.feedbackId === message._id); i += 1) await new Promise((r) => setTimeout(r, 50));
    const event = answered.find((e) => e.payload.feedbackId === message._id);
    expect(event?.payload).toEqual({
      feedbackId: message._id,
      name: 'Farhan',
      email: 'farhan@example.com',
      message: 'Do you ship to Leh?',
      answer: 'Yes, we ship across India, Leh included.',
      bookTitle: null,
    });
    expect(event?.actor).toMatchObject({ email: 'owner@persona-books.in' });
    expect(await auditOf(message._id, 'feedback.answered')).toEqual([
      expect.objectContaining({ summary: 'Message from Farhan answered by e-mail', actor: 'owner@persona-books.in' }),
    ]);

    // A second answer is refused and changes nothing.
    const second = await inject({ method: 'POST', url: `/api/feedback/${message._id}/answer`, headers: admin, payload: { text: 'Something else' } });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('This message has already been answered');
    expect((await row(message._id)).answer).toBe('Yes, we ship across India, Leh included.');
    expect(answered.filter((e) => e.payload.feedbackId === message._id)).toHaveLength(1);
  });

  it.each([
    ['an empty answer', { text: '' }, 'body field "text" must not be empty'],
    ['a blank answer', { text: '   ' }, null],
    ['an answer too long', { text: 'x'.repeat(5001) }, 'body field "text" must be at most 5000 characters'],
    ['another field', { text: 'Hi', to: 'someone@else.example' }, 'body field "to" is not allowed'],
  ])('refuses %s with 400, answering nothing', async (_label, payload, message) => {
    const feedback = await send('Ishaan');
    const res = await inject({ method: 'POST', url: `/api/feedback/${feedback._id}/answer`, headers: admin, payload });
    expect(res.statusCode).toBe(400);
    if (message) expect(res.json().message).toBe(message);
    expect(await row(feedback._id)).toMatchObject({ answer: null, handled_at: null });
  });

  it('refuses a bad mark with 400 and an unknown message with 404', async () => {
    const feedback = await send('Tara');
    for (const payload of [{}, { handled: 'yes' }, { handled: true, by: 'someone@else.example' }]) {
      expect((await inject({ method: 'PATCH', url: `/api/feedback/${feedback._id}`, headers: admin, payload })).statusCode).toBe(400);
    }
    expect((await row(feedback._id)).handled_at).toBeNull();
    expect((await inject({ method: 'PATCH', url: '/api/feedback/not-a-uuid', headers: admin, payload: { handled: true } })).statusCode).toBe(400);
    expect((await inject({ method: 'PATCH', url: `/api/feedback/${randomUUID()}`, headers: admin, payload: { handled: true } })).statusCode).toBe(404);
    expect((await inject({ method: 'POST', url: `/api/feedback/${randomUUID()}/answer`, headers: admin, payload: { text: 'Hi' } })).statusCode).toBe(404);
    expect((await inject({ url: '/api/feedback/all?state=everything', headers: admin })).statusCode).toBe(400);
  });

  it('answers 401 to anyone but an administrator, changing nothing', async () => {
    const feedback = await send('Kabir');
    const visitor = { authorization: 'Bearer not-a-token' };
    for (const headers of [{}, visitor]) {
      expect((await inject({ method: 'PATCH', url: `/api/feedback/${feedback._id}`, headers, payload: { handled: true } })).statusCode).toBe(401);
      expect((await inject({ method: 'POST', url: `/api/feedback/${feedback._id}/answer`, headers, payload: { text: 'Hi' } })).statusCode).toBe(401);
      expect((await inject({ url: '/api/feedback/all?state=unhandled', headers })).statusCode).toBe(401);
    }
    expect(await row(feedback._id)).toMatchObject({ answer: null, handled_at: null });
    expect(answered.some((e) => e.payload.feedbackId === feedback._id)).toBe(false);
  });
}

describe('feedback handled and answered on PGlite', () => contract('pglite'));
describeWithPostgres()('feedback handled and answered on PostgreSQL', () => contract('postgres'));
