// A printed copy through a print-on-demand house (issue 27), against a stand-in speaking Lulu's
// Print API: the Persona made with print files that passed the preflight queues a print job, handed
// to the house once (token, job body, the files fetched from their signed URLs), tried again later
// when the house is down; the house's signed webhooks move the job, and its shipment marks the order
// shipped with its carrier and tracking number, as an administrator would; a webhook not signed
// with the shop's secret is refused and changes nothing. No job for a digital copy or for files the
// preflight refused; a rejection kept with why.
import type { InjectOptions } from 'fastify';
import { createEvent } from '@persona/bus';
import { printFileToken, printFileUrl } from '@persona/service-kit';
import { describeOnOneDatabase } from '@persona/test-kit';
import { printHouse, webhookSignature } from '../../src/modules/printing/print-house';
import { ADDRESS, checkout, outboxEvents, paidOrder, startOrdersHarness, type OrdersHarness } from '../support';
import { startPrintHouseStandIn, type PrintHouseStandIn } from '../support/print-house-stand-in';

const INTERNAL_TOKEN = 'p'.repeat(32);
const PUBLIC_URL = 'https://shop.example';

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  let house: PrintHouseStandIn;
  beforeAll(async () => {
    // The house fetches the files at the shop's address: the personalisation service answers a PDF for the right token.
    house = await startPrintHouseStandIn(async (url) => {
      const m = /\/api\/personas\/([^/]+)\/print\/(interior|cover)\.pdf\?token=(.+)$/.exec(url);
      return m && m[3] === printFileToken(INTERNAL_TOKEN, m[1]!, m[2] as 'interior' | 'cover') ? new TextEncoder().encode('%PDF-1.7 print file') : null;
    });
    h = await startOrdersHarness(kind, {
      printProvider: printHouse({ url: house.url, clientKey: house.clientKey, clientSecret: house.clientSecret, contactEmail: 'help@shop.example' }),
      internalToken: INTERNAL_TOKEN,
      printJobsPollMs: 50,
    });
  });
  afterAll(async () => {
    await h.close();
    await house.close();
  });

  const inject = (opts: InjectOptions) => h.service.app.inject(opts);
  const order = (id: string) => h.database.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const job = (orderId: string) => h.database.db.selectFrom('print_jobs').selectAll().where('order_id', '=', orderId).executeTakeFirst();
  async function until<T>(check: () => Promise<T | undefined | null | false>, what: string): Promise<T> {
    for (let i = 0; i < 300; i += 1) {
      const value = await check();
      if (value) return value;
      await new Promise((r) => setTimeout(r, 30));
    }
    throw new Error(`timed out waiting for ${what}`);
  }
  /** A printed copy paid for, and personalisation's word that its Persona and print files are made. */
  async function printedCopyReady(print: { ready: boolean; problems: string[] } = { ready: true, problems: [] }, deliveryType = 'physical') {
    const { orderId, personaId } = await paidOrder(h, checkout({ deliveryType, address: deliveryType === 'physical' ? ADDRESS : null, fullName: 'Asha Rao' }));
    await h.bus.publish(
      createEvent(
        'persona.ready',
        { orderId, personaId, sha256: 'a'.repeat(64), pages: 40, print: { ...print, pages: 42 } },
        { correlationId: `ready-${personaId}` },
      ),
    );
    await until(async () => (await order(orderId)).persona_status === 'ready', 'the Persona to be ready');
    return { orderId, personaId };
  }
  const webhook = (message: { body: string; headers: Record<string, string> }) =>
    inject({ method: 'POST', url: '/api/print-house/webhook', payload: message.body, headers: message.headers });

  it('hands a printed copy to the house once, and marks the order shipped with its tracking number when the house ships it', async () => {
    const { orderId, personaId } = await printedCopyReady();
    const submitted = await until(async () => ((j) => j?.status === 'submitted' && j)(await job(orderId)), 'the job handed over');
    const sent = house.jobs.filter((j) => j.body.external_id === orderId);
    expect(sent).toHaveLength(1);
    expect(submitted.provider_job_id).toBe(String(sent[0]!.id));
    expect(sent[0]!.body).toEqual({
      external_id: orderId,
      contact_email: 'help@shop.example',
      shipping_level: 'MAIL',
      // Kerala by its PIN code, as the house names it (ISO 3166-2:IN).
      shipping_address: {
        name: 'Asha Rao',
        street1: '12 MG Road',
        city: 'Kochi',
        state_code: 'KL',
        country_code: 'IN',
        postcode: '682001',
        phone_number: '+91 98765 43210',
      },
      line_items: [
        {
          external_id: personaId,
          title: 'Gitanjali',
          quantity: 1,
          printable_normalization: {
            pod_package_id: '0583X0827BWSTDPB060UW444MXX',
            cover: { source_url: printFileUrl(PUBLIC_URL, INTERNAL_TOKEN, personaId, 'cover') },
            interior: { source_url: printFileUrl(PUBLIC_URL, INTERNAL_TOKEN, personaId, 'interior') },
          },
        },
      ],
    });
    expect(sent[0]!.fetched).toEqual({ cover: '%PDF-1.7', interior: '%PDF-1.7' });

    const id = sent[0]!.id;
    expect((await webhook(house.webhook(id, 'IN_PRODUCTION'))).json()).toEqual({ status: 'applied' });
    expect((await job(orderId))!.status).toBe('in_production');
    expect((await order(orderId)).delivery_status).toBe('pending');

    // Signed with another secret, or not at all: refused, nothing changes.
    const shipped = house.webhook(id, 'SHIPPED', { trackingId: 'LX123456789IN', carrier: 'India Post' });
    const forged = await webhook({ body: shipped.body, headers: { ...shipped.headers, 'lulu-hmac-sha256': 'f'.repeat(64) } });
    expect({ status: forged.statusCode, message: forged.json().message }).toEqual({ status: 401, message: 'Invalid print house webhook signature' });
    expect(
      (await inject({ method: 'POST', url: '/api/print-house/webhook', payload: shipped.body, headers: { 'content-type': 'application/json' } })).statusCode,
    ).toBe(401);
    // A body past the 256 KB a job update takes, or not JSON: refused with a message, nothing changes.
    const huge = await inject({ method: 'POST', url: '/api/print-house/webhook', payload: `{"pad":"${'x'.repeat(300 * 1024)}"}`, headers: shipped.headers });
    expect({ status: huge.statusCode, message: typeof huge.json().message }).toEqual({ status: 413, message: 'string' });
    const text = await inject({ method: 'POST', url: '/api/print-house/webhook', payload: 'shipped', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBeGreaterThanOrEqual(400);
    expect(text.statusCode).toBeLessThan(500);
    expect((await order(orderId)).delivery_status).toBe('pending');

    // Shipped, told twenty times at once: the order is shipped once, with the house's carrier and tracking number.
    const told = await Promise.all(Array.from({ length: 20 }, () => webhook(shipped)));
    expect(told.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const after = await order(orderId);
    expect({ status: after.delivery_status, carrier: after.carrier, tracking: after.tracking_number }).toEqual({
      status: 'shipped',
      carrier: 'India Post',
      tracking: 'LX123456789IN',
    });
    expect((await job(orderId))!.status).toBe('shipped');
    const changes = (await outboxEvents(h.database)).filter((e) => e.type === 'order.delivery_status_changed' && e.payload.orderId === orderId);
    expect(changes.map((e) => e.payload)).toEqual([{ orderId, personaId, from: 'pending', to: 'shipped' }]);
    // A late word from the house never takes the job back.
    await webhook(house.webhook(id, 'IN_PRODUCTION'));
    expect((await job(orderId))!.status).toBe('shipped');
  });

  it('tries a job again later when the house is down, sending it once it answers', async () => {
    house.failNext(1);
    const { orderId } = await printedCopyReady();
    const waiting = await until(async () => ((j) => j?.attempts === 1 && j)(await job(orderId)), 'the first attempt');
    expect({ status: waiting.status, error: waiting.last_error }).toEqual({
      status: 'queued',
      error: expect.stringMatching(/^the print house refused the job \(503\)/),
    });
    expect(waiting.next_attempt_at!.getTime()).toBeGreaterThan(Date.now() + 50_000);
    // The minute passes.
    await h.database.db.updateTable('print_jobs').set({ next_attempt_at: new Date() }).where('order_id', '=', orderId).execute();
    await until(async () => (await job(orderId))?.status === 'submitted', 'the job handed over on its second attempt');
    expect(house.jobs.filter((j) => j.body.external_id === orderId)).toHaveLength(1);
  });

  it('makes no job for a digital copy or for print files the preflight refused, and keeps why the house rejected one', async () => {
    const digital = await printedCopyReady({ ready: true, problems: [] }, 'digital');
    const refused = await printedCopyReady({ ready: false, problems: ['cover: an image on page 1 (600 × 900 px) prints at 103 ppi: 300 are needed'] });
    expect(await job(digital.orderId)).toBeUndefined();
    expect(await job(refused.orderId)).toBeUndefined();

    const { orderId } = await printedCopyReady();
    await until(async () => (await job(orderId))?.status === 'submitted', 'the job handed over');
    const id = house.jobs.find((j) => j.body.external_id === orderId)!.id;
    expect((await webhook(house.webhook(id, 'REJECTED', { error: 'The cover file is damaged' }))).json()).toEqual({ status: 'applied' });
    expect(await job(orderId)).toMatchObject({ status: 'rejected', last_error: 'REJECTED: The cover file is damaged' });
    // An update about a job that is not this shop's, or another topic, is acknowledged and ignored.
    const stranger = house.webhook(id, 'SHIPPED');
    const other = JSON.stringify({ ...JSON.parse(stranger.body), data: { ...JSON.parse(stranger.body).data, id: 99 } });
    const signed = { body: other, headers: { ...stranger.headers, 'lulu-hmac-sha256': webhookSignature(house.clientSecret, other) } };
    expect((await webhook(signed)).json()).toEqual({ status: 'ignored' });
    expect((await order(orderId)).delivery_status).toBe('pending');
  });
}

// Routes and a stand-in, not the database: once, on PostgreSQL where it answers.
describeOnOneDatabase('printing through a print house', contract);
