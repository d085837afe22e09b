// A Persona's licence (issue 23), on PGlite and PostgreSQL: an order refunded in full ends its
// Personas' downloads while they stay genuine, and a re-issue's new Persona, once made, replaces the
// old one — each told on the verify route, each download refused with a 410 that says why.
import { randomUUID } from 'node:crypto';
import { createEvent } from '@persona/bus';
import { describeWithPostgres } from '@persona/test-kit';
import { inlineBuildPool } from '../../src/modules/build-pool/build-pool';
import { endLicences } from '../../src/modules/personas/licences';
import { paidOrder, readOneChapter, serviceHarness, type StackKind } from '../support/service-on';

function contract(kind: StackKind) {
  const h = serviceHarness(kind, { readSource: readOneChapter, buildPool: inlineBuildPool(), lookupsPerMinute: 1000 });

  const paid = (orderId: string, personaId: string, buyerName?: string) => paidOrder(orderId, personaId, { buyerName });
  async function ready(personaId: string) {
    const end = Date.now() + 30_000;
    for (;;) {
      const row = await h.database.db.selectFrom('personas').selectAll().where('persona_id', '=', personaId).where('status', '=', 'ready').executeTakeFirst();
      if (row) return row;
      if (Date.now() > end) throw new Error(`${personaId} was not made`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const verify = async (personaId: string) => (await h.service.app.inject({ url: `/api/personas/${personaId}/verify` })).json().data;
  async function upload(bytes: Buffer) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'persona.pdf');
    const response = new Response(form);
    const answer = await h.service.app.inject({
      method: 'POST',
      url: '/api/personas/verify',
      payload: Buffer.from(await response.arrayBuffer()),
      headers: { 'content-type': response.headers.get('content-type')! },
    });
    return answer.json().data;
  }
  const download = (personaId: string, format = 'pdf') => h.service.app.inject({ url: `/api/personas/${personaId}/download?format=${format}` });

  it('ends the downloads of a refunded order while its Persona stays genuine, once however often it is told', async () => {
    const orderId = randomUUID();
    const personaId = 'PRS-RFD1-9QXD-2HFA-J8TW';
    await h.bus.publish(createEvent('order.paid', paid(orderId, personaId), { correlationId: 'c-refund' }));
    await ready(personaId);
    const copy = await download(personaId);
    expect(copy.statusCode).toBe(200);
    expect((await verify(personaId)).licence).toEqual({ status: 'active' });

    const refunded = createEvent('order.refunded_in_full', { orderId, personaId, refundedAt: '2026-11-25T06:30:00.000Z' }, { correlationId: 'c-refund' });
    expect(await endLicences(h.database.db, refunded)).toEqual([personaId]);
    // The same event again (a redelivery) finds it done.
    expect(await endLicences(h.database.db, refunded)).toEqual([]);

    const verified = await verify(personaId);
    expect(verified).toMatchObject({ valid: true, name: 'Zoë Ünal', licence: { status: 'refunded', endedAt: '2026-11-25T06:30:00.000Z' } });
    // The copy the buyer kept is still genuine, and says its licence ended.
    expect(await upload(copy.rawPayload)).toEqual({
      genuine: true,
      personaId,
      reason: 'A genuine, unmodified Persona of "The Lighthouse Keeper" personalised for Zoë Ünal; its order was refunded in full, so its licence has ended',
    });
    for (const format of ['pdf', 'epub']) {
      const refused = await download(personaId, format);
      expect({ status: refused.statusCode, message: refused.json().message }).toEqual({
        status: 410,
        message: "This Persona's order was refunded in full on 25 November 2026: it can no longer be downloaded",
      });
    }
  }, 60_000);

  it('makes a Persona of an order refunded before it was made with its licence already ended', async () => {
    const orderId = randomUUID();
    const personaId = 'PRS-RFD2-9QXD-2HFA-J8TW';
    await h.bus.publish(createEvent('order.refunded_in_full', { orderId, personaId, refundedAt: new Date().toISOString() }, { correlationId: 'c-early' }));
    // The two events travel on different queues: the request is sent once the refund is recorded (the case under test).
    for (const end = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 50))) {
      if (await h.database.db.selectFrom('refunded_orders').select('order_id').where('order_id', '=', orderId).executeTakeFirst()) break;
      if (Date.now() > end) throw new Error('the refund was not recorded');
    }
    await h.bus.publish(createEvent('persona.retry_requested', paid(orderId, personaId), { correlationId: 'c-early' }));
    const row = await ready(personaId);
    expect(row.licence_end).toBe('refunded');
    expect((await download(personaId)).statusCode).toBe(410);
  }, 60_000);

  it('replaces a re-issued Persona once the new one is made, the new one verifying with the corrected name', async () => {
    const orderId = randomUUID();
    const oldId = 'PRS-XYD1-9QXD-2HFA-J8TW';
    const newId = 'PRS-NEW1-9QXD-2HFA-J8TW';
    await h.bus.publish(createEvent('order.paid', paid(orderId, oldId, 'Zoe Unal'), { correlationId: 'c-reissue' }));
    await ready(oldId);
    const kept = (await download(oldId)).rawPayload;
    const reissue = {
      ...paid(orderId, newId, 'Zoë Ünal'),
      reissueId: randomUUID(),
      replacesPersonaId: oldId,
      reason: 'The buyer typed their name without its accents',
    };
    await h.bus.publish(createEvent('persona.reissue_requested', reissue, { correlationId: 'c-reissue' }));
    // Delivered twice: still one new Persona.
    await h.bus.publish(createEvent('persona.reissue_requested', reissue, { correlationId: 'c-reissue' }));
    await ready(newId);

    const old = await verify(oldId);
    expect(old).toMatchObject({ valid: true, name: 'Zoe Unal', licence: { status: 'replaced', replacedBy: newId } });
    const refused = await download(oldId);
    expect({ status: refused.statusCode, message: refused.json().message }).toEqual({
      status: 410,
      message: `This Persona was replaced by Persona ${newId}, with the corrected details: download that one`,
    });
    expect((await upload(kept)).reason).toBe(
      `A genuine, unmodified Persona of "The Lighthouse Keeper" personalised for Zoe Unal; it was replaced by Persona ${newId}, with corrected details`,
    );
    expect(await verify(newId)).toMatchObject({ valid: true, name: 'Zoë Ünal', licence: { status: 'active' } });
    expect((await download(newId)).statusCode).toBe(200);
    const rows = await h.database.db.selectFrom('personas').select('persona_id').where('order_id', '=', orderId).execute();
    expect(rows.map((r) => r.persona_id).sort()).toEqual([newId, oldId]);

    // The order refunded in full afterwards: the new one ends refunded, the old one stays replaced.
    await endLicences(
      h.database.db,
      createEvent('order.refunded_in_full', { orderId, personaId: newId, refundedAt: new Date().toISOString() }, { correlationId: 'c' }),
    );
    expect((await verify(newId)).licence.status).toBe('refunded');
    expect((await verify(oldId)).licence.status).toBe('replaced');
  }, 60_000);
}

describe('licences on PGlite', () => contract('pglite'));
describeWithPostgres()('licences on PostgreSQL', () => contract('postgres'));
