// The buyers' library (DESIGN §12): a sign-in link by e-mail, the same answer for every address,
// a link that opens once within 15 minutes, the session it opens, and the Personas it lists.
import { describeOnOneDatabase } from '@persona/test-kit';
import { sql } from 'kysely';
import { LIBRARY_TOKEN_HEADER } from '@persona/contracts';
import { checkout, issuedInvoice, paidOrder, startOrdersHarness, type OrdersHarness } from '../support';

describeOnOneDatabase('the library', (kind) => {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrdersHarness(kind, { libraryLinksPerMinute: 1000 });
  });
  afterAll(() => h.close());

  const ask = (email: string) => h.service.app.inject({ method: 'POST', url: '/api/library/link', payload: { email } });
  const open = (token: string) => h.service.app.inject({ url: '/api/library', headers: { [LIBRARY_TOKEN_HEADER]: token } });
  /** The links e-mailed to `email`, newest last, read from the queued e-mails' text. */
  async function linksTo(email: string): Promise<string[]> {
    const { rows } = await sql<{
      text_body: string;
    }>`SELECT text_body FROM emails WHERE kind = 'library-link' AND to_address = ${email} ORDER BY created_at`.execute(h.database.db);
    return rows.map((r) => /#token=([A-Za-z0-9_-]+)/.exec(r.text_body)![1]!);
  }

  it('answers every address alike, and e-mails a link only to one with Personas', async () => {
    const mine = await paidOrder(h, checkout({ email: 'Reader.One@Example.com', fullName: 'Reader One' }));
    // The library links the invoice order.paid's consumer issues, which may come after the payment's answer.
    await issuedInvoice(h, mine.personaId);
    const known = await ask('reader.one@example.com');
    const unknown = await ask('nobody.here@example.com');
    expect([known.statusCode, unknown.statusCode]).toEqual([202, 202]);
    expect(known.json()).toEqual(unknown.json());
    expect(await linksTo('nobody.here@example.com')).toEqual([]);
    const [token] = await linksTo('reader.one@example.com');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The token is kept only as its hash.
    const { rows } = await sql<{ token_hash: string }>`SELECT token_hash FROM library_tokens WHERE email = 'reader.one@example.com'`.execute(h.database.db);
    expect(rows.map((r) => r.token_hash)).not.toContain(token);

    const library = await open(token!);
    expect(library.statusCode).toBe(200);
    expect(library.headers['cache-control']).toBe('no-store');
    const data = library.json().data;
    expect(data.email).toBe('reader.one@example.com');
    expect(data.personas).toEqual([
      {
        personaId: mine.personaId,
        book: expect.objectContaining({ title: 'Gitanjali' }),
        deliveryType: 'digital',
        personaStatus: 'generating',
        paidAt: expect.any(String),
        downloads: [],
        verifyUrl: `/verify/${mine.personaId}`,
        gift: null,
        refundedAt: null,
        // The tax invoice, by Persona ID as the receipt e-mail links it.
        documents: [{ kind: 'invoice', number: expect.stringMatching(/^PB\/\d\d-\d\d\/\d{6}$/), url: `/api/orders/${mine.personaId}/invoice` }],
      },
    ]);
    // The link opened a session: a reload keeps the library open with it.
    expect((await open(data.session.token)).json().data.personas).toHaveLength(1);
  });

  it('opens a link once, within 15 minutes; a reused, expired or made-up token opens nothing', async () => {
    await paidOrder(h, checkout({ email: 'reader.two@example.com' }));
    await ask('reader.two@example.com');
    await ask('reader.two@example.com');
    const [first, second] = await linksTo('reader.two@example.com');
    expect((await open(first!)).statusCode).toBe(200);
    const reused = await open(first!);
    expect({ status: reused.statusCode, message: reused.json().message }).toEqual({
      status: 401,
      message: 'This sign-in link has expired or was already used. Ask for a new one.',
    });
    await sql`UPDATE library_tokens SET expires_at = now() - interval '1 second' WHERE kind = 'link' AND used_at IS NULL AND email = 'reader.two@example.com'`.execute(
      h.database.db,
    );
    expect((await open(second!)).statusCode).toBe(401);
    expect((await open('A'.repeat(43))).statusCode).toBe(401);
    expect((await h.service.app.inject({ url: '/api/library' })).statusCode).toBe(400);
    expect((await open('not a token!')).statusCode).toBe(400);
  });

  it('sends one address at most three links in 15 minutes, answering the same', async () => {
    await paidOrder(h, checkout({ email: 'reader.three@example.com' }));
    for (let i = 0; i < 5; i += 1) expect((await ask('reader.three@example.com')).statusCode).toBe(202);
    expect(await linksTo('reader.three@example.com')).toHaveLength(3);
  });

  it('refuses what is not an e-mail address, writing nothing', async () => {
    for (const email of ['', 'not-an-email', `${'x'.repeat(200)}@example.com`]) {
      expect((await ask(email)).statusCode).toBe(400);
    }
    expect((await h.service.app.inject({ method: 'POST', url: '/api/library/link', payload: { email: 'a@example.com', admin: true } })).statusCode).toBe(400);
  });
});

describeOnOneDatabase('the library link requests', (kind) => {
  it('are rate limited per client', async () => {
    const h = await startOrdersHarness(kind, { libraryLinksPerMinute: 2 });
    try {
      const ask = () => h.service.app.inject({ method: 'POST', url: '/api/library/link', payload: { email: 'someone@example.com' } });
      expect([(await ask()).statusCode, (await ask()).statusCode, (await ask()).statusCode]).toEqual([202, 202, 429]);
    } finally {
      await h.close();
    }
  });
});
