// A paid order never ends with nothing (issue 22): when personalisation gives up on a Persona
// (persona.failed), the buyer is told plainly what happens next and the shop is alerted at its own
// address, each once, through the bus and the inbox; a redelivered event sends nothing twice, a
// retry that fails again alerts the shop again, and a retry that succeeds sends the ready e-mail.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createEvent } from '@persona/bus';
import { PERSONA_FAILED_NOTICE, type OrderSummary } from '@persona/contracts';
import { sql } from '@persona/db';
import { describeWithPostgres } from '@persona/test-kit';
import { applyPersonaEvent } from '../../../src/modules/orders/persona-events';
import { checkout, paidOrder, startOrdersHarness, type OrdersHarness } from '../../support';

const SHOP = { publicUrl: 'https://shop.example', supportEmail: 'help@shop.example' };
const REASON = 'the catalogue answered 404 for /internal/books/6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c/pdf: The full PDF file is missing';

interface Mail {
  to: string;
  text: string;
  html: string;
}

// The .eml parts are quoted-printable: undo soft line breaks and =XX escapes (UTF-8 bytes).
const unquote = (qp: string) =>
  Buffer.from(
    qp.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

function parseMail(raw: string): Mail {
  const part = (type: string) => unquote(new RegExp(`Content-Type: ${type}[^\\n]*\\n(?:[^\\n]+\\n)*\\n([\\s\\S]*?)(?:\\n----|$)`).exec(raw)?.[1] ?? '');
  return { to: /^To: (.*)$/m.exec(raw)?.[1] ?? '', text: part('text/plain'), html: part('text/html') };
}

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  beforeAll(async () => {
    // The relay a minute ahead: the confirmation, due a minute after payment, goes with the rest.
    h = await startOrdersHarness(kind, { mailNow: () => new Date(Date.now() + 61_000) });
  });
  afterAll(() => h.close());

  /** Every e-mail sent so far that names the Persona, by the line of its heading. */
  async function mailsAbout(personaId: string): Promise<Mail[]> {
    await h.service.drainMail();
    const files = await readdir(h.mailDir);
    const mails = await Promise.all(files.map(async (f) => parseMail(await readFile(path.join(h.mailDir, f), 'utf8'))));
    return mails.filter((m) => m.text.includes(personaId));
  }
  const headings = (mails: Mail[]) => mails.map((m) => `${m.to}: ${m.text.split('\n')[2]}`).sort();

  const emailKinds = async (orderId: string) =>
    (await sql<{ kind: string }>`SELECT kind FROM emails WHERE order_id = ${orderId} ORDER BY kind`.execute(h.database.db)).rows.map((r) => r.kind);

  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const summary = async () => {
    const res = await h.service.app.inject({ url: '/api/orders/summary', headers: h.admin });
    expect(res.statusCode).toBe(200);
    return res.json().data as OrderSummary;
  };
  const retry = (orderId: string) => h.service.app.inject({ method: 'POST', url: `/api/orders/${orderId}/persona/retry`, headers: h.admin });

  it('tells the buyer and alerts the shop once per failure, however often the event is delivered, and counts it on the dashboard', async () => {
    const before = await summary();
    const { orderId, personaId } = await paidOrder(h);
    const failed = createEvent('persona.failed', { orderId, personaId, reason: REASON }, { correlationId: 'failure-1' });
    // Delivered twice, as a broker may after a lost acknowledgement.
    await h.bus.publish(failed);
    await h.bus.publish(failed);
    // The confirmation comes by its own consumer (order.paid), in its own time.
    await until(
      () => emailKinds(orderId),
      (kinds) => kinds.includes('persona-failed-alert') && kinds.includes('order-confirmed'),
      'the failure e-mails',
    );
    // Handled once more by hand: the inbox has it, nothing changes.
    expect(await applyPersonaEvent(h.database.db, failed, SHOP)).toBe('ignored');
    expect(await emailKinds(orderId)).toEqual(['order-confirmed', 'persona-failed', 'persona-failed-alert']);

    const mails = await mailsAbout(personaId);
    expect(headings(mails)).toEqual([
      'help@shop.example: A paid Persona could not be made',
      'zoe@example.com: Thank you for your order',
      `zoe@example.com: ${PERSONA_FAILED_NOTICE.heading}`,
    ]);

    const buyer = mails.find((m) => m.text.includes(PERSONA_FAILED_NOTICE.heading))!;
    expect(buyer.text).toContain('Dear Zoë Ünal,');
    expect(buyer.text).toContain('Your payment is safe.');
    expect(buyer.text).toContain('the shop has been alerted: we will make it again or refund you in full within 2 business days.');
    expect(buyer.text).toMatch(new RegExp(`Persona ID: +${personaId}`));
    expect(buyer.text).toMatch(new RegExp(`Order: +${orderId}`));
    expect(buyer.text).toMatch(/Amount paid: +₹349\.50/);
    expect(buyer.text).toContain(`Your Persona page: https://shop.example/send-persona?personaId=${personaId}`);
    expect(buyer.text).toContain('Questions? Write to help@shop.example');
    // The buyer never reads the technical reason.
    expect(buyer.text).not.toContain('PDF file is missing');
    expect(buyer.html).toContain('Your payment is safe.');

    const alert = mails.find((m) => m.to === 'help@shop.example')!;
    expect(alert.text).toMatch(new RegExp(`Order: +${orderId}`));
    expect(alert.text).toMatch(new RegExp(`Persona ID: +${personaId}`));
    expect(alert.text).toMatch(/Book: +Gitanjali by Rabindranath Tagore/);
    expect(alert.text).toMatch(/Buyer: +Zoë Ünal/);
    expect(alert.text).toMatch(/Buyer's e-mail: +zoe@example\.com/);
    expect(alert.text).toMatch(new RegExp(`Reason: +${REASON}`));
    expect(alert.text).toContain(`Open the order to retry: https://shop.example/admin/orders?search=${personaId}`);
    expect(alert.text).toContain('Every failed Persona: https://shop.example/admin/orders?persona=failed');
    expect(alert.html).toContain(`<a href="https://shop.example/admin/orders?search=${personaId}"`);

    // The dashboard's tile counts it, and its list (where Retry is) holds it.
    const after = await summary();
    expect(after.failedPersonas).toBe(before.failedPersonas + 1);
    const list = await h.service.app.inject({ url: '/api/orders?paymentStatus=paid&personaStatus=failed&limit=100', headers: h.admin });
    expect(list.json().data.map((o: { _id: string }) => o._id)).toContain(orderId);
    expect(list.json().meta.total).toBe(after.failedPersonas);
  });

  it('a retry that fails again alerts the shop again but not the buyer; a retry that succeeds sends the ready e-mail and clears the tile', async () => {
    const { orderId, personaId } = await paidOrder(h, checkout({ fullName: 'Ananya Rao', email: 'ananya@example.com' }));
    const before = await summary();
    const fail = (n: number) => createEvent('persona.failed', { orderId, personaId, reason: `${REASON} (${n})` }, { correlationId: `failure-${n}` });
    expect(await applyPersonaEvent(h.database.db, fail(1), SHOP)).toBe('failed');
    expect((await summary()).failedPersonas).toBe(before.failedPersonas + 1);

    expect((await retry(orderId)).statusCode).toBe(200);
    // Back to being made: off the tile.
    expect((await summary()).failedPersonas).toBe(before.failedPersonas);
    await h.bus.publish(fail(2));
    await until(
      () => emailKinds(orderId),
      (kinds) => kinds.filter((k) => k === 'persona-failed-alert').length === 2 && kinds.includes('order-confirmed'),
      'the second alert',
    );
    expect(await emailKinds(orderId)).toEqual(['order-confirmed', 'persona-failed', 'persona-failed-alert', 'persona-failed-alert']);
    const alerts = (await mailsAbout(personaId)).filter((m) => m.to === 'help@shop.example');
    expect(alerts.map((m) => /Reason: +(.*)/.exec(m.text)?.[1]).sort()).toEqual([`${REASON} (1)`, `${REASON} (2)`]);

    expect((await retry(orderId)).statusCode).toBe(200);
    await h.bus.publish(createEvent('persona.ready', { orderId, personaId, sha256: 'e'.repeat(64), pages: 40 }, { correlationId: 'ready' }));
    await until(
      () => emailKinds(orderId),
      (kinds) => kinds.includes('persona-ready') && kinds.includes('order-confirmed'),
      'the ready e-mail',
    );
    const toBuyer = (await mailsAbout(personaId)).filter((m) => m.to === 'ananya@example.com');
    expect(headings(toBuyer)).toEqual([
      'ananya@example.com: Thank you for your order',
      `ananya@example.com: ${PERSONA_FAILED_NOTICE.heading}`,
      'ananya@example.com: Your Persona is ready',
    ]);
    expect(toBuyer.find((m) => m.text.includes('Your Persona is ready'))!.text).toContain(`https://shop.example/api/personas/${personaId}/download`);
    expect((await summary()).failedPersonas).toBe(before.failedPersonas);

    // A failure told after the Persona was made (a late duplicate) changes nothing and tells no one.
    expect(await applyPersonaEvent(h.database.db, fail(3), SHOP)).toBe('ignored');
    expect((await emailKinds(orderId)).filter((k) => k === 'persona-failed-alert')).toHaveLength(2);
  });
}

describe('a failed Persona on PGlite', () => contract('pglite'));
describeWithPostgres()('a failed Persona on PostgreSQL', () => contract('postgres'));
