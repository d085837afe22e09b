// Retention (issue 26): what grows with every sale is pruned once past its days, a batch at a
// time, on PostgreSQL and PGlite: an order's e-mails keep their rows and lose their bodies (and
// cannot be sent again), e-mails about no order go, handled webhooks, old payment attempts (not
// while their order's refund is under way) and library tokens long expired go; nothing younger,
// nothing unsent, no webhook still owed. The service's round does it in the replica that leads and
// counts it on /metrics.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from '@persona/db';
import { describeWithPostgres } from '@persona/test-kit';
import type { OrdersDB } from '../../../src/db';
import { DEFAULT_RETENTION, pruneRetained } from '../../../src/modules/retention/retention';
import { RETENTION_BATCH } from '../../../src/modules/retention/retention.repository';
import { paidOrder, startOrdersHarness, type OrdersHarness } from '../../support';

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  let db: Kysely<OrdersDB>;
  let orderId: string;
  let refundedOrderId: string;

  beforeAll(async () => {
    h = await startOrdersHarness(kind);
    db = h.database.db;
    orderId = (await paidOrder(h)).orderId;
    refundedOrderId = (await paidOrder(h)).orderId;
    // What the checkouts themselves left (their attempts, webhooks, e-mails) is recent: kept throughout.
  });
  afterAll(() => h.close());

  const email = (values: { orderId: string | null; kind: string; sentAt: Date | null; createdAt: Date }) =>
    db
      .insertInto('emails')
      .values({
        order_id: values.orderId,
        kind: values.kind,
        to_address: 'zoe@example.com',
        subject: `A ${values.kind} e-mail`,
        text_body: 'The text.',
        html_body: '<p>The text.</p>',
        created_at: values.createdAt,
        sent_at: values.sentAt,
        occasion: randomUUID(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then((row) => row.id);

  it('prunes each table past its days and keeps the rest, a row an order refers to blanked rather than deleted', async () => {
    const oldOrderEmail = await email({ orderId, kind: 'shipped', sentAt: daysAgo(200), createdAt: daysAgo(200) });
    const recentOrderEmail = await email({ orderId, kind: 'delivered', sentAt: daysAgo(10), createdAt: daysAgo(10) });
    const oldUnsent = await email({ orderId, kind: 'cancelled', sentAt: null, createdAt: daysAgo(300) });
    const oldLink = await email({ orderId: null, kind: 'library-link', sentAt: daysAgo(181), createdAt: daysAgo(181) });
    const recentLink = await email({ orderId: null, kind: 'library-link', sentAt: daysAgo(179), createdAt: daysAgo(179) });

    await db
      .insertInto('webhook_events')
      .values([
        { event_id: 'evt_old_handled', event: 'payment.captured', received_at: daysAgo(100), handled_at: daysAgo(100), outcome: 'paid' },
        { event_id: 'evt_old_owed', event: 'payment.captured', received_at: daysAgo(100), due_at: new Date(), attempts: 40, last_error: 'down' },
        { event_id: 'evt_recent', event: 'payment.captured', received_at: daysAgo(80), handled_at: daysAgo(80), outcome: 'paid' },
      ])
      .execute();

    const attempt = (order: string, days: number) =>
      db
        .insertInto('payment_attempts')
        .values({ order_id: order, razorpay_payment_id: null, outcome: 'failed', source: 'webhook', detail: `${days} days`, created_at: daysAgo(days) })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((row) => String(row.id));
    const oldAttempt = await attempt(orderId, 401);
    const recentAttempt = await attempt(orderId, 399);
    const oldAttemptUnderRefund = await attempt(refundedOrderId, 500);
    await db
      .insertInto('refunds')
      .values({
        id: randomUUID(),
        order_id: refundedOrderId,
        payment_id: 'pay_x',
        amount_paise: 100,
        speed: 'normal',
        reason: 'asked',
        status: 'pending',
        requested_by: 'owner@example.com',
      })
      .execute();

    const token = (hash: string, expiresAt: Date) =>
      db.insertInto('library_tokens').values({ token_hash: hash, kind: 'link', email: 'zoe@example.com', expires_at: expiresAt }).execute();
    await token('expired-long-ago', daysAgo(8));
    await token('expired-lately', daysAgo(6));
    await token('open', new Date(Date.now() + 60_000));

    expect(await pruneRetained(db, DEFAULT_RETENTION)).toEqual({
      emailBodiesBlanked: 1,
      emailsDeleted: 1,
      webhookEventsDeleted: 1,
      paymentAttemptsDeleted: 1,
      libraryTokensDeleted: 1,
    });

    const emails = await db.selectFrom('emails').select(['id', 'text_body', 'html_body', 'subject']).execute();
    const byId = new Map(emails.map((row) => [row.id, row]));
    expect(byId.get(oldOrderEmail)).toEqual({ id: oldOrderEmail, text_body: '', html_body: null, subject: 'A shipped e-mail' });
    for (const kept of [recentOrderEmail, oldUnsent, recentLink])
      expect(byId.get(kept)).toMatchObject({ text_body: 'The text.', html_body: '<p>The text.</p>' });
    expect(byId.has(oldLink)).toBe(false);

    const events = (await db.selectFrom('webhook_events').select('event_id').execute()).map((row) => row.event_id);
    expect(events).toEqual(expect.arrayContaining(['evt_old_owed', 'evt_recent']));
    expect(events).not.toContain('evt_old_handled');

    const attempts = (await db.selectFrom('payment_attempts').select('id').execute()).map((row) => String(row.id));
    expect(attempts).toEqual(expect.arrayContaining([recentAttempt, oldAttemptUnderRefund]));
    expect(attempts).not.toContain(oldAttempt);

    const tokens = (await db.selectFrom('library_tokens').select('token_hash').execute()).map((row) => row.token_hash);
    expect(tokens.sort()).toEqual(['expired-lately', 'open']);

    // Once the refund is settled, its order's old attempts go too; a second round finds nothing more.
    await db.updateTable('refunds').set({ status: 'processed' }).where('order_id', '=', refundedOrderId).execute();
    expect(await pruneRetained(db, DEFAULT_RETENTION)).toMatchObject({ paymentAttemptsDeleted: 1, emailBodiesBlanked: 0, libraryTokensDeleted: 0 });
    expect(Object.values(await pruneRetained(db, DEFAULT_RETENTION))).toEqual([0, 0, 0, 0, 0]);
  });

  it('takes its days from the settings', async () => {
    const id = await email({ orderId, kind: 'refund-processed', sentAt: daysAgo(40), createdAt: daysAgo(40) });
    expect((await pruneRetained(db, DEFAULT_RETENTION)).emailBodiesBlanked).toBe(0);
    expect((await pruneRetained(db, { ...DEFAULT_RETENTION, emailBodyDays: 30 })).emailBodiesBlanked).toBe(1);
    expect((await db.selectFrom('emails').select('text_body').where('id', '=', id).executeTakeFirstOrThrow()).text_body).toBe('');
  });

  it('refuses to send again an e-mail whose body is gone, and the order page still lists it', async () => {
    const id = await email({ orderId, kind: 'persona-failed', sentAt: daysAgo(365), createdAt: daysAgo(365) });
    await pruneRetained(db, DEFAULT_RETENTION);
    const res = await h.service.app.inject({
      method: 'POST',
      url: `/api/orders/${orderId}/emails/${id}/resend`,
      payload: { requestId: randomUUID() },
      headers: h.admin,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'EMAIL_BODY_PRUNED', message: expect.stringContaining('cannot be sent again') });
    const detail = (await h.service.app.inject({ url: `/api/orders/${orderId}/detail`, headers: h.admin })).json().data;
    expect(detail.emails).toEqual(expect.arrayContaining([expect.objectContaining({ _id: id, kind: 'persona-failed', subject: 'A persona-failed e-mail' })]));
  });

  it('prunes more than a batch in batches, through the service round, and counts it on /metrics', async () => {
    const rows = RETENTION_BATCH * 2 + 500;
    await sql`
      INSERT INTO library_tokens (token_hash, kind, email, expires_at, created_at)
      SELECT 'bulk-' || g, 'session', 'bulk@example.com', now() - interval '30 days', now() - interval '31 days'
      FROM generate_series(1, ${rows}) AS g`.execute(db);
    expect(await h.service.pruneRetained()).toBe(rows);
    const left = await db
      .selectFrom('library_tokens')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('email', '=', 'bulk@example.com')
      .executeTakeFirstOrThrow();
    expect(left.n).toBe(0);
    const metrics = (await h.service.app.inject({ url: '/metrics' })).body;
    expect(metrics).toMatch(new RegExp(`retention_pruned_rows_total\\{table="library_tokens",action="deleted"\\} ${rows}\\b`));
    expect(metrics).toMatch(/retention_pruned_rows_total\{table="emails",action="blanked"\} \d+/);
  });
}

describe('retention on PGlite', () => contract('pglite'));
describeWithPostgres()('retention on PostgreSQL', () => contract('postgres'));
