// Shipping a printed copy to the right person on time (issue 24): the address carries the
// courier's name and phone (a gift's recipient's, never the giver's on the recipient's door), an
// Indian PIN code, state, second line and landmark, India only; every paid printed copy gets a
// ship-by date (printedDelivery at payment) that the dispatch list is sorted by and shows, with
// the CSV for the courier; the receipt says when it arrives; old rows show the buyer as before.
import type { InjectOptions } from 'fastify';
import { describeOnOneDatabase } from '@persona/test-kit';
import { printedDelivery, shopDate, SHIPPING_COUNTRY_MESSAGE, ZIP_MESSAGE } from '@persona/contracts';
import { sql } from 'kysely';
import { ADDRESS, checkout, paidOrder, startOrdersHarness, verifyBody, type OrdersHarness } from '../support';

const RECIPIENT_ADDRESS = {
  name: 'Meera  Nair',
  phone: '+91 94470 12345',
  line1: 'Flat 4B, Sea Breeze Apartments',
  line2: 'Marine Drive',
  landmark: 'Opposite the boat jetty',
  city: 'Kochi',
  zip: '682031',
  state: '32',
  country: 'India',
};

const daysAhead = (days: number) => shopDate(new Date(), -days);

function contract(kind: 'pglite' | 'postgres') {
  let h: OrdersHarness;
  beforeAll(async () => {
    h = await startOrdersHarness(kind);
  });
  afterAll(() => h.close());

  const inject = (opts: InjectOptions) => h.service.app.inject(opts);
  const initiate = (body: object) => inject({ method: 'POST', url: '/api/payments/initiate', payload: body });
  const adminOrder = async (id: string) => (await inject({ url: `/api/orders/${id}`, headers: h.admin })).json().data;
  const countOrders = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM orders`.execute(h.database.db)).rows[0]!.n;
  const gift = (recipientName: string, deliverOn: string) => ({ recipientName, deliverOn });

  it('addresses a printed gift to its recipient: their name and phone, the second line, landmark and state, kept and shown', async () => {
    const deliverOn = daysAhead(30);
    const init = await initiate(
      checkout({ fullName: 'Arjun Menon', deliveryType: 'physical', address: RECIPIENT_ADDRESS, gift: gift('Meera Nair', deliverOn) }),
    );
    expect(init.statusCode).toBe(200);
    const { orderId, razorpayOrderId } = init.json().data;
    const verified = await inject({ method: 'POST', url: '/api/payments/verify', payload: verifyBody(orderId, razorpayOrderId, `pay_${orderId.slice(0, 8)}`) });
    const expected = printedDelivery(shopDate(new Date()), deliverOn);
    const address = { ...RECIPIENT_ADDRESS, name: 'Meera Nair' };
    // The buyer's receipt: where it goes, and by when.
    expect(verified.json().data.receipt).toMatchObject({ address, shipBy: expected.shipBy, arrivesBy: deliverOn });
    const order = await adminOrder(orderId);
    expect(order).toMatchObject({ fullName: 'Arjun Menon', phone: '+91 98765 43210', address, shipBy: expected.shipBy, arrivesBy: deliverOn });
    const row = await h.database.db.selectFrom('orders').select(['buyer_state', 'ship_by']).where('id', '=', orderId).executeTakeFirstOrThrow();
    // A printed copy's place of supply is where it goes.
    expect(row).toEqual({ buyer_state: '32', ship_by: expected.shipBy });
  });

  it("fills what an older checkout did not send: a gift's recipient's name, the buyer's phone, the state from the PIN code", async () => {
    const own = await paidOrder(h, checkout({ fullName: 'Kavya Iyer', deliveryType: 'physical', address: ADDRESS }));
    const ownOrder = await adminOrder(own.orderId);
    expect(ownOrder.address).toEqual({ ...ADDRESS, name: 'Kavya Iyer', phone: '+91 98765 43210', state: '32' });
    const today = shopDate(new Date());
    expect(ownOrder).toMatchObject({ shipBy: printedDelivery(today).shipBy, arrivesBy: printedDelivery(today).arrivesBy });

    const given = await paidOrder(
      h,
      checkout({ deliveryType: 'physical', address: { ...ADDRESS, zip: '560034', city: 'Bengaluru' }, gift: gift('Rohan Das', today) }),
    );
    const givenOrder = await adminOrder(given.orderId);
    expect(givenOrder.address).toMatchObject({ name: 'Rohan Das', phone: '+91 98765 43210', state: '29' });
    // A gift's day too close to meet: shipped as soon as it can be, arriving after it.
    expect(givenOrder.shipBy).toBe(printedDelivery(today, today).shipBy);
    expect(givenOrder.arrivesBy > today).toBe(true);

    const digital = await paidOrder(h, checkout());
    expect(await adminOrder(digital.orderId)).toMatchObject({ address: null, shipBy: null, arrivesBy: null });
  });

  it('shows the buyer as the addressee of an order from before addresses had their own name and phone', async () => {
    const { orderId } = await paidOrder(h, checkout({ fullName: 'Old Row', deliveryType: 'physical', address: ADDRESS }));
    await h.database.db
      .updateTable('orders')
      .set({ address: JSON.stringify({ line1: '12 MG Road', city: 'Kochi', zip: '682001', country: 'India' }), ship_by: null })
      .where('id', '=', orderId)
      .execute();
    expect(await adminOrder(orderId)).toMatchObject({
      address: { line1: '12 MG Road', city: 'Kochi', zip: '682001', country: 'India', name: 'Old Row', phone: '+91 98765 43210' },
      shipBy: null,
      arrivesBy: null,
    });
  });

  it.each([
    ['a PIN code starting with 0', { ...ADDRESS, zip: '012345' }, {}, ZIP_MESSAGE],
    ['a PIN code with a letter', { ...ADDRESS, zip: '68200a' }, {}, ZIP_MESSAGE],
    ['another country', { ...ADDRESS, country: 'Sri Lanka' }, {}, SHIPPING_COUNTRY_MESSAGE],
    [
      'a state the PIN code is not in',
      { ...ADDRESS, zip: '695001', state: '29' },
      {},
      'The PIN code 695001 is in Kerala, not Karnataka: please check the PIN code and the state',
    ],
    ['a PIN code of no known state, without a state', { ...ADDRESS, zip: '999999' }, {}, 'Please choose the state of the delivery address (PIN code 999999)'],
    [
      "an invoice state other than the address's",
      { ...ADDRESS, state: '32' },
      { state: '29' },
      "A printed copy's invoice names the state it is delivered to: the state given differs from the delivery address's",
    ],
    ["a recipient's phone that is not one", { ...ADDRESS, phone: 'ring the bell' }, {}, 'body field "address.phone" has an invalid format'],
    ['a state that is not one', { ...ADDRESS, state: '99' }, {}, 'body field "address.state" must be one of'],
  ])('refuses %s with 400 and creates nothing', async (_label, address, extra, message) => {
    const before = await countOrders();
    const res = await initiate(checkout({ deliveryType: 'physical', address, ...extra }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
    expect(await countOrders()).toBe(before);
  });

  it('lists the printed copies to send by ship-by date, earliest first, with the addressee, page by page; the CSV likewise', async () => {
    const name = (n: string) => `Sorter ${n}`;
    const late = await paidOrder(h, checkout({ fullName: name('Late'), deliveryType: 'physical', address: ADDRESS, gift: gift('Asha Late', daysAhead(60)) }));
    const soon = await paidOrder(h, checkout({ fullName: name('Soon'), deliveryType: 'physical', address: { ...ADDRESS, name: 'Nikhil Soon' } }));
    const middle = await paidOrder(
      h,
      checkout({ fullName: name('Middle'), deliveryType: 'physical', address: RECIPIENT_ADDRESS, gift: gift('Meera Nair', daysAhead(30)) }),
    );
    await initiate(checkout({ fullName: name('Unpaid'), deliveryType: 'physical', address: ADDRESS }));
    const list = async (query: string) =>
      (await inject({ url: `/api/orders?deliveryType=physical&status=pending&search=Sorter${query}`, headers: h.admin })).json();
    const first = await list('&limit=2');
    expect(first.data.map((o: { personaId: string }) => o.personaId)).toEqual([soon.personaId, middle.personaId]);
    expect(first.data.map((o: { address: { name: string } }) => o.address.name)).toEqual(['Nikhil Soon', 'Meera Nair']);
    expect(first.data[1]).toMatchObject({ shipBy: printedDelivery(shopDate(new Date()), daysAhead(30)).shipBy, address: { phone: '+91 94470 12345' } });
    const second = await list(`&limit=2&after=${first.meta.next}`);
    // The unpaid one has no ship-by date yet: last.
    expect(second.data.map((o: { personaId: string; shipBy: string | null }) => [o.personaId, o.shipBy === null])).toEqual([
      [late.personaId, false],
      [expect.any(String), true],
    ]);
    // Any other list stays newest first.
    const all = (await inject({ url: '/api/orders?search=Sorter', headers: h.admin })).json().data.map((o: { fullName: string }) => o.fullName);
    expect(all).toEqual([name('Unpaid'), name('Middle'), name('Soon'), name('Late')]);

    const csv = await inject({ url: '/api/orders/dispatch-list?search=Sorter', headers: h.admin });
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('Persona ID,Ship by,Name,Phone,Address,Book,Amount,Date,Interior PDF,Cover PDF');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([soon.personaId, middle.personaId, late.personaId]);
    expect(lines[2]).toContain(
      `${middle.personaId},${printedDelivery(shopDate(new Date()), daysAhead(30)).shipBy},Meera Nair,'+91 94470 12345,"Flat 4B, Sea Breeze Apartments, Marine Drive, Opposite the boat jetty, Kochi, Kerala, 682031, India"`,
    );
  });
}

// Routes, not the database: once, on PostgreSQL where it answers (the repositories' suites run on both).
describeOnOneDatabase('shipping', contract);
