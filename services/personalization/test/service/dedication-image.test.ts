// A finished Persona's dedication page as a picture, for its gift recipient's e-mail (issue 24,
// point 9): GET /api/personas/:id/dedication?token= answers the page the engine draws for the
// printed name and message, to the holder of the token the orders service names it by
// (personaImageToken from INTERNAL_TOKEN); without it, with another Persona's, or for a Persona not
// made or no longer licensed, the same 404 that says nothing.
import { randomUUID } from 'node:crypto';
import { personaImageToken } from '@persona/service-kit';
import { inlineBuildPool, type BuildPool } from '../../src/modules/build-pool/build-pool';
import type { PersonalizationService } from '../../src/service';
import { startTestService } from '../support/test-service';

const BOOK_ID = '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c';
const SECRET = 'x'.repeat(32);
const GIFT = 'PRS-7K3M-9QXD-2HFA-J8TW';
const OWN = 'PRS-2HFA-J8TW-7K3M-9QXD';
const FAILED = 'PRS-9QXD-7K3M-J8TW-2HFA';
const REFUNDED = 'PRS-J8TW-2HFA-9QXD-7K3M';

describe("a finished Persona's dedication image", () => {
  let service: PersonalizationService;
  let close: () => Promise<void>;
  const drawn: Array<{ name: string; message?: string }> = [];
  beforeAll(async () => {
    const inline = inlineBuildPool();
    const watching: BuildPool = { ...inline, preview: (input) => (drawn.push({ name: input.name, message: input.message }), inline.preview(input)) };
    let stack;
    ({ service, close, stack } = await startTestService({
      internalToken: SECRET,
      readSource: async () => {
        throw new Error('no Persona is made here');
      },
      readTitle: async (bookId) => (bookId === BOOK_ID ? { title: 'The Lighthouse Keeper', author: 'Meera Iyer' } : null),
      buildPool: watching,
    }));
    const persona = (persona_id: string, over: Record<string, unknown> = {}) => ({
      persona_id,
      order_id: randomUUID(),
      book_id: BOOK_ID,
      title: 'The Lighthouse Keeper',
      author: 'Meera Iyer',
      buyer_name: 'Asha Rao',
      purchase_date: '2026-11-25',
      status: 'ready' as const,
      ...over,
    });
    await stack.database.db
      .insertInto('personas')
      .values([
        persona(GIFT, { recipient_name: 'Ravi Kumar', message: 'Happy birthday, Ravi!' }),
        persona(OWN),
        persona(FAILED, { status: 'failed', error: 'catalogue down' }),
        persona(REFUNDED, { licence_ended_at: new Date(), licence_end: 'refunded' }),
      ] as never)
      .execute();
  }, 60_000);
  afterAll(() => close());

  const image = (personaId: string, token = personaImageToken(SECRET, personaId)) =>
    service.app.inject({ url: `/api/personas/${personaId}/dedication?token=${encodeURIComponent(token)}` });

  it("draws a gift's page with the recipient's name and the message, as a PNG no shared cache keeps", async () => {
    const res = await image(GIFT);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('private, max-age=86400');
    expect(res.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    expect(drawn.at(-1)).toEqual({ name: 'Ravi Kumar', message: 'Happy birthday, Ravi!' });
  });

  it("draws the buyer's own name on a Persona that is not a gift", async () => {
    expect((await image(OWN)).statusCode).toBe(200);
    expect(drawn.at(-1)!.name).toBe('Asha Rao');
    expect(drawn.at(-1)!.message ?? '').toBe('');
  });

  it("answers the same 404, drawing nothing, without the token, with another Persona's, or for a Persona not made or no longer licensed", async () => {
    const before = drawn.length;
    for (const res of [
      await image(GIFT, 'wrong-token'),
      await image(GIFT, personaImageToken(SECRET, OWN)),
      await image(GIFT, personaImageToken('y'.repeat(32), GIFT)),
      await image(FAILED),
      await image(REFUNDED),
      await image('PRS-AAAA-BBBB-CCCC-DDDD'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Not found');
    }
    expect((await service.app.inject({ url: `/api/personas/${GIFT}/dedication` })).statusCode).toBe(400);
    expect(drawn.length).toBe(before);
  });
});
