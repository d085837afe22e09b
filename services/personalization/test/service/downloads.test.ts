// A Persona's downloads counted and bounded (issue 24), on PGlite and PostgreSQL: each format
// counted as its file streams (a HEAD counts nothing, a range is a whole counted download), refused
// past the limit or the days with the reason in `code`, never passed by parallel requests; asking
// for more e-mails the buyer a single-use, expiring link (by event) that gives a fresh allowance;
// the owner resets or revokes (audited; administrators only), and a revoked Persona stays genuine.
import { randomUUID } from 'node:crypto';
import { createEvent } from '@persona/bus';
import { describeWithPostgres, mintAdminToken } from '@persona/test-kit';
import { sql } from 'kysely';
import { inlineBuildPool } from '../../src/modules/build-pool/build-pool';
import { RENEWALS_PER_DAY } from '../../src/modules/downloads/downloads.service';
import { paidOrder, readOneChapter, serviceHarness, type StackKind } from '../support/service-on';

const LIMIT = 3;

function contract(kind: StackKind) {
  const h = serviceHarness(kind, {
    readSource: readOneChapter,
    buildPool: inlineBuildPool(),
    lookupsPerMinute: 10_000,
    downloadLimits: { perFormat: LIMIT, days: 30, renewalHours: 48 },
  });

  async function made(personaId: string) {
    const orderId = randomUUID();
    const paid = paidOrder(orderId, personaId, { buyerName: 'Asha Rao' });
    await h.bus.publish(createEvent('order.paid', paid, { correlationId: `c-${personaId}` }));
    for (const end = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 100))) {
      const row = await h.database.db
        .selectFrom('personas')
        .select('persona_id')
        .where('persona_id', '=', personaId)
        .where('status', '=', 'ready')
        .executeTakeFirst();
      if (row) return orderId;
      if (Date.now() > end) throw new Error(`${personaId} was not made`);
    }
  }
  const download = (personaId: string, format = 'pdf', headers: Record<string, string> = {}) =>
    h.service.app.inject({ url: `/api/personas/${personaId}/download?format=${format}`, headers });
  const state = async (personaId: string) => (await h.service.app.inject({ url: `/api/personas/${personaId}/downloads` })).json().data;
  const left = async (personaId: string) =>
    Object.fromEntries((await state(personaId)).formats.map((f: { format: string; left: number }) => [f.format, f.left]));
  const askForMore = (personaId: string) => h.service.app.inject({ method: 'POST', url: `/api/personas/${personaId}/downloads/renewal` });
  const renew = (personaId: string, token: string) =>
    h.service.app.inject({ method: 'POST', url: `/api/personas/${personaId}/downloads/renew`, payload: { token } });
  const OWNER = { authorization: `Bearer ${mintAdminToken({ email: 'owner@shop.example' })}` };
  const admin = (
    personaId: string,
    change: 'reset' | 'revoke',
    headers: Record<string, string> = OWNER,
    payload: object = { reason: `${change} asked by the buyer` },
  ) => h.service.app.inject({ method: 'POST', url: `/api/personas/${personaId}/downloads/${change}`, headers, payload });
  const events = async (type: string) =>
    (
      await sql<{
        envelope: { actor?: { email: string }; payload: Record<string, unknown> };
      }>`SELECT envelope FROM outbox WHERE type = ${type} ORDER BY id`.execute(h.database.db)
    ).rows.map((r) => r.envelope);
  const renewalToken = async (personaId: string) => {
    const sent = (await events('persona.download_renewal_requested')).filter((e) => e.payload.personaId === personaId);
    return sent.at(-1)!.payload.token as string;
  };
  const useAll = async (personaId: string, format = 'pdf') => {
    for (let i = 0; i < LIMIT; i++) expect((await download(personaId, format)).statusCode).toBe(200);
  };

  it('counts each format as it streams, not a HEAD, a range as a whole download, and refuses past the limit saying why', async () => {
    const personaId = 'PRS-DWN1-9QXD-2HFA-J8TW';
    await made(personaId);
    expect(await state(personaId)).toMatchObject({
      personaId,
      status: 'open',
      revokedAt: null,
      formats: [
        { format: 'pdf', used: 0, limit: LIMIT, left: LIMIT, total: 0, lastAt: null },
        { format: 'epub', used: 0, limit: LIMIT, left: LIMIT, total: 0, lastAt: null },
      ],
    });
    const head = await h.service.app.inject({ method: 'HEAD', url: `/api/personas/${personaId}/download` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['accept-ranges']).toBe('none');
    expect(await left(personaId)).toEqual({ pdf: LIMIT, epub: LIMIT });

    const first = await download(personaId);
    expect(first.statusCode).toBe(200);
    expect(first.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // A range asked for gets the whole file, counted once.
    const ranged = await download(personaId, 'pdf', { range: 'bytes=100-' });
    expect(ranged.statusCode).toBe(200);
    expect(ranged.rawPayload.length).toBe(first.rawPayload.length);
    expect(await left(personaId)).toEqual({ pdf: LIMIT - 2, epub: LIMIT });
    expect((await download(personaId, 'epub')).statusCode).toBe(200);
    expect((await download(personaId)).statusCode).toBe(200);

    const refused = await download(personaId);
    expect({ status: refused.statusCode, code: refused.json().code, message: refused.json().message }).toEqual({
      status: 403,
      code: 'DOWNLOAD_LIMIT_REACHED',
      message: `This Persona's PDF has been downloaded ${LIMIT} times, the most it may be: you can ask for more downloads on its page`,
    });
    // A HEAD says so too, and the EPUB keeps its own allowance.
    expect((await h.service.app.inject({ method: 'HEAD', url: `/api/personas/${personaId}/download` })).statusCode).toBe(403);
    expect((await download(personaId, 'epub')).statusCode).toBe(200);
    const after = await state(personaId);
    expect(after.formats).toMatchObject([
      { format: 'pdf', used: LIMIT, left: 0, total: LIMIT },
      { format: 'epub', used: 2, left: LIMIT - 2, total: 2 },
    ]);
    expect(after.formats[0].lastAt).not.toBeNull();
  }, 60_000);

  it('lets twenty parallel requests download no more than the limit', async () => {
    const personaId = 'PRS-DWN2-9QXD-2HFA-J8TW';
    await made(personaId);
    const answers = await Promise.all(Array.from({ length: 20 }, () => download(personaId)));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(LIMIT);
    expect(codes.filter((c) => c === 403)).toHaveLength(20 - LIMIT);
    expect((await state(personaId)).formats[0]).toMatchObject({ used: LIMIT, total: LIMIT, left: 0 });
  }, 60_000);

  it('refuses once the days have passed, and for an id that is not a ready Persona', async () => {
    const personaId = 'PRS-DWN3-9QXD-2HFA-J8TW';
    await made(personaId);
    await h.database.db
      .updateTable('personas')
      .set({ ready_at: new Date(Date.now() - 31 * 86_400_000) })
      .where('persona_id', '=', personaId)
      .execute();
    expect((await state(personaId)).status).toBe('expired');
    const refused = await download(personaId);
    expect({ status: refused.statusCode, code: refused.json().code }).toEqual({ status: 403, code: 'DOWNLOAD_PERIOD_OVER' });
    expect(refused.json().message).toMatch(/^This Persona's downloads ended on \d+ \w+ \d{4}: you can ask for more downloads on its page$/);
    expect((await h.service.app.inject({ url: '/api/personas/PRS-ZZZZ-9QXD-2HFA-J8TW/downloads' })).statusCode).toBe(404);
    expect((await h.service.app.inject({ url: '/api/personas/not-an-id/downloads' })).statusCode).toBe(400);
  }, 60_000);

  it('e-mails the buyer a link for more (by event, rate limited) that gives a fresh allowance once, and never after it expires', async () => {
    const personaId = 'PRS-DWN4-9QXD-2HFA-J8TW';
    const orderId = await made(personaId);
    // Downloads left: nothing to ask for, nothing sent.
    const early = await askForMore(personaId);
    expect({ status: early.statusCode, code: early.json().code }).toEqual({ status: 409, code: 'DOWNLOADS_LEFT' });
    expect(await events('persona.download_renewal_requested')).not.toContainEqual(expect.objectContaining({ payload: expect.objectContaining({ personaId }) }));

    await useAll(personaId);
    const asked = await askForMore(personaId);
    expect({ status: asked.statusCode, body: asked.json() }).toEqual({ status: 202, body: { message: "We've e-mailed the buyer a link for more downloads." } });
    const sent = (await events('persona.download_renewal_requested')).filter((e) => e.payload.personaId === personaId);
    expect(sent).toHaveLength(1);
    // The order's id, for orders to find the buyer's address; no address travels from the visitor.
    expect(sent[0]!.payload).toMatchObject({ personaId, orderId, used: LIMIT, limit: LIMIT });
    const token = await renewalToken(personaId);

    // A wrong token, or another Persona's, opens nothing.
    expect((await renew(personaId, 'A'.repeat(43))).statusCode).toBe(410);
    expect((await renew('PRS-DWN1-9QXD-2HFA-J8TW', token)).statusCode).toBe(410);
    const renewed = await renew(personaId, token);
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().data.formats[0]).toMatchObject({ used: 0, left: LIMIT, total: LIMIT });
    expect((await download(personaId)).statusCode).toBe(200);
    // Single use.
    const again = await renew(personaId, token);
    expect({ status: again.statusCode, code: again.json().code }).toEqual({ status: 410, code: 'RENEWAL_LINK_CLOSED' });

    // An expired link opens nothing either.
    for (let i = 1; i < LIMIT; i++) expect((await download(personaId)).statusCode).toBe(200);
    expect((await askForMore(personaId)).statusCode).toBe(202);
    const late = await renewalToken(personaId);
    await h.database.db
      .updateTable('download_renewals')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('persona_id', '=', personaId)
      .where('used_at', 'is', null)
      .execute();
    expect((await renew(personaId, late)).statusCode).toBe(410);
    expect(await left(personaId)).toMatchObject({ pdf: 0 });

    // At most RENEWALS_PER_DAY links a day, however often the button is pressed.
    for (let i = 2; i < RENEWALS_PER_DAY; i++) expect((await askForMore(personaId)).statusCode).toBe(202);
    const flood = await askForMore(personaId);
    expect({ status: flood.statusCode, code: flood.json().code }).toEqual({ status: 429, code: 'RENEWALS_PER_DAY' });
    expect((await events('persona.download_renewal_requested')).filter((e) => e.payload.personaId === personaId)).toHaveLength(RENEWALS_PER_DAY);
  }, 60_000);

  it('lets only administrators reset or revoke, audited; a revoked Persona downloads nothing, stays genuine, and its link does not reopen it', async () => {
    const personaId = 'PRS-DWN5-9QXD-2HFA-J8TW';
    const orderId = await made(personaId);
    for (const change of ['reset', 'revoke'] as const) {
      expect((await admin(personaId, change, {})).statusCode).toBe(401);
      expect((await admin(personaId, change, { authorization: 'Bearer not-a-token' })).statusCode).toBe(401);
    }
    // Why is the audit log's: none, or more than asked for, is refused and changes nothing.
    for (const payload of [{}, { reason: ' ' }, { reason: 'x', used: 0 }]) {
      const answer = await admin(personaId, 'revoke', OWNER, payload);
      expect({ payload, status: answer.statusCode }).toEqual({ payload, status: 400 });
    }
    expect(await events('persona.downloads_revoked')).toEqual([]);

    await useAll(personaId);
    expect((await askForMore(personaId)).statusCode).toBe(202);
    const token = await renewalToken(personaId);
    const revoked = await admin(personaId, 'revoke');
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data).toMatchObject({ status: 'revoked', formats: [{ left: 0 }, { left: 0 }] });
    const refused = await download(personaId, 'epub');
    expect({ status: refused.statusCode, code: refused.json().code }).toEqual({ status: 403, code: 'DOWNLOADS_REVOKED' });
    expect((await h.service.app.inject({ url: `/api/personas/${personaId}/verify` })).json().data.valid).toBe(true);
    // The buyer's link cannot undo the owner's stop, and stays unused.
    expect((await renew(personaId, token)).statusCode).toBe(403);
    expect((await askForMore(personaId)).statusCode).toBe(403);

    const reset = await admin(personaId, 'reset');
    expect(reset.json().data).toMatchObject({
      status: 'open',
      revokedAt: null,
      formats: [
        { used: 0, left: LIMIT, total: LIMIT },
        { used: 0, left: LIMIT },
      ],
    });
    expect((await download(personaId)).statusCode).toBe(200);
    expect(await events('persona.downloads_revoked')).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ email: 'owner@shop.example' }),
        payload: { personaId, orderId, reason: 'revoke asked by the buyer' },
      }),
    ]);
    expect(await events('persona.downloads_reset')).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ email: 'owner@shop.example' }),
        payload: { personaId, orderId, reason: 'reset asked by the buyer' },
      }),
    ]);
  }, 60_000);
}

describe('downloads on PGlite', () => contract('pglite'));
describeWithPostgres()('downloads on PostgreSQL', () => contract('postgres'));
