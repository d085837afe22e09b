// A printed gift reaches the right person on time (issue 24), in real Chromium against the whole
// shop in test mode: the checkout's Indian address (the PIN code fills the city and state, India
// fixed, line 2 and landmark), the recipient's name and phone for the courier, "arrives by" and
// the warning for a gift's day too close; then the admin's dispatch list (printed copies pending,
// earliest ship-by date first) shows the recipient's name and phone and the ship-by date, and
// shipping the gift weeks early is warned of and must be confirmed.
import { printedDelivery, shopDate } from '@persona/contracts';
import { open, settle } from './support/browser';
import { adminAuth, buyPersonaThroughApi } from './support/shop';
import { browserJourney, squash } from './support/journey';

/** A day as the checkout says it ("Thursday, 24 December") and as the admin does ("24 Dec 2026"). */
const checkoutDay = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-IN', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
const adminDay = (date: string) =>
  new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Kolkata' }).format(new Date(date));

const journey = browserJourney({ viewport: { width: 1366, height: 900 } });
const { main, field } = journey;

describe('a printed gift', () => {
  it('is addressed to its recipient at checkout, listed for dispatch by ship-by date with their name and phone, and shipping it weeks early asks to confirm', async () => {
    const book = journey.books.find((b) => b.printingCost > 0) ?? journey.books[0]!;
    const today = shopDate(new Date());
    const giftDay = shopDate(new Date(), -30);
    // An ordinary printed copy paid first: it ships sooner, so the dispatch list puts it first.
    const ordinary = await buyPersonaThroughApi(journey.shop.url, { bookId: book._id, fullName: 'Ordinary Printed', deliveryType: 'physical' });

    await open(journey.page, `/checkout/${book._id}`);
    await main().getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    await field('Full Name').fill('Arjun Menon');
    await field('Email').fill('arjun@example.com');
    await field('Phone Number').fill('+91 98765 43210');
    await main().getByLabel('This is a gift').check();
    await field("Recipient's name").fill('Meera Nair');
    await main().getByRole('radio', { name: 'Physical' }).check();

    // Today's gift day cannot be met by post: said before paying.
    await field('Deliver on').fill(today);
    const arrival = main().locator('.checkout__arrival');
    await settle(async () => (await arrival.innerText()).includes('is too close for the post'), true);
    expect(squash(await arrival.innerText())).toBe(
      `${checkoutDay(today)} is too close for the post: the printed copy may arrive after it, by ${checkoutDay(printedDelivery(today, today).arrivesBy)}. The e-book reaches them on the day.`,
    );
    await field('Deliver on').fill(giftDay);
    expect(await settle(async () => squash(await arrival.innerText()), `Arrives by ${checkoutDay(giftDay)}, in time for the day you chose.`)).toBe(
      `Arrives by ${checkoutDay(giftDay)}, in time for the day you chose.`,
    );

    // The courier's name is the recipient's, prefilled; their phone is asked, never the giver's.
    expect(await field("Recipient's name for the courier").inputValue()).toBe('Meera Nair');
    expect(await field("Recipient's phone").inputValue()).toBe('');
    await field("Recipient's phone").fill('+91 94470 12345');
    // The PIN code fills the city and the state; the country is India, shown, not typed.
    await field('PIN code').fill('682016');
    expect(await settle(() => field('City').inputValue(), 'Kochi')).toBe('Kochi');
    expect(await settle(() => field('State').inputValue(), '32')).toBe('32');
    await main().getByText('Found: Kochi, Kerala or Lakshadweep').waitFor();
    expect(await main().getByRole('textbox', { name: 'Country' }).count()).toBe(0);
    expect(squash(await main().locator('.checkout__country').innerText())).toBe('Country India');
    await field('Address Line 1').fill('Flat 4B, Sea Breeze Apartments');
    await field('Address Line 2 (optional)').fill('Marine Drive');
    await field('Landmark (optional)').fill('Opposite the boat jetty');

    const initiated = journey.page.waitForRequest((request) => new URL(request.url()).pathname === '/api/payments/initiate');
    await main()
      .getByRole('button', { name: /^Complete Purchase - ₹/ })
      .click();
    expect(((await initiated).postDataJSON() as { address: unknown }).address).toEqual({
      name: 'Meera Nair',
      phone: '+91 94470 12345',
      line1: 'Flat 4B, Sea Breeze Apartments',
      line2: 'Marine Drive',
      landmark: 'Opposite the boat jetty',
      city: 'Kochi',
      zip: '682016',
      state: '32',
      country: 'India',
    });
    const dialog = journey.page.getByRole('dialog', { name: 'Test-mode payment' });
    await dialog.getByRole('button', { name: 'Pay successfully' }).click();
    await journey.page.waitForURL((url) => url.pathname === '/payment-success', { timeout: 30000 });
    const orderId = new URL(journey.page.url()).searchParams.get('orderId')!;

    // The dispatch list: printed copies pending, the earliest ship-by date first, each with whom the courier asks for.
    const { authorization } = await adminAuth(journey.shop.url);
    await journey.page.goto('/admin/login');
    await journey.page.evaluate((token) => localStorage.setItem('token', token), authorization.replace(/^Bearer /, ''));
    await journey.page.goto('/admin/orders?deliveryType=physical&status=pending');
    await journey.page.getByRole('table', { name: 'Printed copies to send, earliest ship-by date first' }).waitFor();
    const row = main().locator(`tr[data-order-id="${orderId}"]`);
    await row.waitFor();
    const shipBy = printedDelivery(today, giftDay).shipBy;
    const delivery = squash(await row.locator('td').nth(3).innerText());
    expect(delivery).toContain(`Ship by ${adminDay(shipBy)}`);
    expect(delivery).toContain('To Meera Nair +91 94470 12345');
    expect(delivery).toContain('Flat 4B, Sea Breeze Apartments, Marine Drive, Opposite the boat jetty, Kochi, Kerala, 682016, India');
    expect(delivery).not.toContain('Arjun Menon');
    const ids = await main()
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-order-id')));
    expect(ids.indexOf(ordinary.orderId)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(ordinary.orderId)).toBeLessThan(ids.indexOf(orderId));

    // Shipping the gift weeks before its ship-by date: warned, and only once confirmed.
    await row.getByRole('combobox').selectOption('shipped');
    const ship = journey.page.getByRole('dialog');
    const warning = ship.getByRole('alert');
    await warning.waitFor();
    expect(squash(await warning.innerText())).toContain(`its ship-by date is ${adminDay(shipBy)}`);
    expect(squash(await warning.innerText())).toContain('Shipped today it may reach Meera Nair more than a week early.');
    expect(squash(await ship.innerText())).toContain('Deliver to Meera Nair, +91 94470 12345');
    const confirm = ship.getByRole('button', { name: 'Mark shipped early' });
    expect(await confirm.isDisabled()).toBe(true);
    await ship.getByLabel('Ship it early anyway').check();
    await confirm.click();
    await journey.page.getByRole('region', { name: 'Notifications' }).getByText('Delivery status updated', { exact: true }).waitFor();
    expect(await settle(() => row.getByRole('combobox').inputValue(), 'shipped')).toBe('shipped');
  }, 180000);
});
