// The administrator's long lists in real Chromium (embedded shop with a generated data set): the
// orders list paged by cursor with the place kept through Next, Previous, reload, back and
// forward, and by a page number typed in; a stale page link landing on the first page; searches
// by e-mail prefix and name; the count; and orders.csv made by the server with every order the
// filters keep.
import { seedScale } from '@persona/launcher';
import { downloadedBytes, settle } from './support/browser';
import { browserJourney, signInAsAdmin, startOwnShop } from './support/journey';
import { TEST_ADMIN } from './support/shop';

const ORDERS = 130;

let token: string;

interface ApiOrder {
  _id: string;
  fullName: string;
  email: string;
}

async function api<T>(url: string): Promise<T> {
  const res = await fetch(`${journey.shop.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

const journey = browserJourney({
  start: () =>
    startOwnShop('persona-admin-lists-', {}, (dataDir) => seedScale({ dataDir, books: 40, orders: ORDERS, seed: 11, force: false }, () => undefined)),
  books: false,
  contextOptions: { acceptDownloads: true },
  prepare: async (shop) => {
    const login = await fetch(`${shop.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: TEST_ADMIN.email, password: TEST_ADMIN.password }),
    });
    token = ((await login.json()) as { data: { token: string } }).data.token;
  },
  // Logged in as the login page would leave it (spec §3: the token in local storage).
  onContext: (context) => signInAsAdmin(context, token),
});

const main = () => journey.page.locator('main');
const rowIds = () =>
  main()
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-order-id')));
const pageLabel = () => main().getByRole('navigation', { name: 'Pages' }).locator('[aria-current="page"]').innerText();

describe('the orders list at length', () => {
  it('pages by cursor and keeps the place through reload, back and forward', async () => {
    const all = await api<{ data: ApiOrder[]; meta: { total: number } }>('/api/orders?paymentStatus=paid&limit=100');
    const paid = all.meta.total;
    expect(paid).toBeGreaterThan(60);
    const pages = Math.ceil(paid / 20);

    await journey.page.goto('/admin/orders');
    await journey.page.getByRole('heading', { level: 1, name: 'Order Dashboard' }).waitFor();
    await main().locator('tbody tr').first().waitFor();
    expect(await main().getByRole('status').innerText()).toBe(`${paid} orders`);
    expect(await pageLabel()).toBe(`Page 1 of ${pages}`);
    const first = await rowIds();
    expect(first).toHaveLength(20);
    expect(await main().getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);

    await main().getByRole('button', { name: 'Next' }).click();
    await journey.page.waitForURL(/page=2&after=/);
    // The next page has arrived: a full page of rows (not the loading state's none), the first a new one.
    const arrived = async (before: ReadonlyArray<string | null>) => {
      const ids = await rowIds();
      return ids.length === first.length && ids[0] !== before[0];
    };
    await settle(() => arrived(first), true);
    const second = await rowIds();
    await main().getByRole('button', { name: 'Next' }).click();
    await journey.page.waitForURL(/page=3&after=/);
    await settle(() => arrived(second), true);
    const third = await rowIds();
    expect(await pageLabel()).toBe(`Page 3 of ${pages}`);
    // Three pages, sixty different orders, newest first as the API has them.
    expect(new Set([...first, ...second, ...third]).size).toBe(60);
    expect([...first, ...second, ...third]).toEqual(all.data.slice(0, 60).map((o) => o._id));

    // Reload keeps the place.
    await journey.page.reload();
    await main().locator('tbody tr').first().waitFor();
    expect(await rowIds()).toEqual(third);
    // Previous walks back by the cursor before the first row.
    await main().getByRole('button', { name: 'Previous' }).click();
    await journey.page.waitForURL(/page=2&before=/);
    await settle(async () => JSON.stringify(await rowIds()), JSON.stringify(second));
    // Back and forward through the browser's history.
    await journey.page.goBack();
    await settle(async () => JSON.stringify(await rowIds()), JSON.stringify(third));
    await journey.page.goForward();
    await settle(async () => JSON.stringify(await rowIds()), JSON.stringify(second));
    await main().getByRole('button', { name: 'Previous' }).click();
    await journey.page.waitForURL((url) => !url.search.includes('page='));
    await settle(async () => JSON.stringify(await rowIds()), JSON.stringify(first));

    // The last page: Next is disabled.
    await journey.page.goto(`/admin/orders?page=${pages}`);
    await main().locator('tbody tr').first().waitFor();
    expect(await main().getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    expect(await main().locator('tbody tr').count()).toBe(paid - (pages - 1) * 20);

    // A page number typed in: page 4 holds the rows an offset would, and says which page of how many.
    await main().getByLabel('Go to page').fill('4');
    await main().getByRole('button', { name: 'Go', exact: true }).click();
    await journey.page.waitForURL((url) => url.searchParams.get('page') === '4' && !url.searchParams.has('after'));
    await settle(async () => JSON.stringify(await rowIds()), JSON.stringify(all.data.slice(60, 80).map((o) => o._id)));
    expect(await pageLabel()).toBe(`Page 4 of ${pages}`);
  });

  it('lands on the first page from a page link that is no longer valid', async () => {
    await journey.page.goto('/admin/orders?page=4&after=bm90LWEtY3Vyc29y');
    await journey.page.waitForURL((url) => url.pathname === '/admin/orders' && url.search === '');
    await main().locator('tbody tr').first().waitFor();
    expect(await pageLabel()).toMatch(/^Page 1 of /);
  });

  it('searches by the beginning of an e-mail and by a name, and exports exactly what matches', async () => {
    const sample = (await api<{ data: ApiOrder[] }>('/api/orders?limit=1')).data[0]!;
    const prefix = sample.email.slice(0, sample.email.indexOf('@') + 1);
    const matching = await api<{ data: ApiOrder[]; meta: { total: number } }>(`/api/orders?paymentStatus=paid&limit=100&search=${encodeURIComponent(prefix)}`);
    expect(matching.meta.total).toBeGreaterThan(0);

    await journey.page.goto('/admin/orders');
    await main().locator('tbody tr').first().waitFor();
    await main().getByLabel('Search').fill(prefix.toUpperCase());
    await main().getByRole('button', { name: 'Search', exact: true }).click();
    await journey.page.waitForURL(/search=/);
    await settle(() => main().getByRole('status').innerText(), `${matching.meta.total} ${matching.meta.total === 1 ? 'order' : 'orders'}`);
    const emails = await main().locator('tbody tr td:nth-child(3) .cell-sub:first-of-type').allInnerTexts();
    expect(emails.every((e) => e.toLowerCase().startsWith(prefix))).toBe(true);

    const downloading = journey.page.waitForEvent('download');
    await main().getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('orders.csv');
    const lines = (await downloadedBytes(download)).toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('S.No,Customer,Book Title,Delivery Type,Delivery Status,Order ID');
    expect(lines.slice(1).map((line) => line.split(',').at(-1))).toEqual(matching.data.map((o) => o._id));

    // A name by any part of it.
    const surname = sample.fullName.split(' ').at(-1)!;
    await main().getByLabel('Search').fill(surname.toLowerCase());
    await main().getByRole('button', { name: 'Search', exact: true }).click();
    await settle(async () => {
      const names = await main().locator('tbody tr td:nth-child(3)').allInnerTexts();
      return names.length > 0 && names.every((n) => n.toLowerCase().includes(surname.toLowerCase()));
    }, true);
  });

  it('exports every order the filters keep, across the server’s batches', async () => {
    await journey.page.goto('/admin/orders?payment=all');
    await main().locator('tbody tr').first().waitFor();
    const downloading = journey.page.waitForEvent('download');
    await main().getByRole('button', { name: 'Export CSV' }).click();
    const lines = (await downloadedBytes(await downloading)).toString('utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(ORDERS + 1);
    expect(lines.slice(1).map((line) => Number(line.split(',')[0]))).toEqual(Array.from({ length: ORDERS }, (_, i) => i + 1));
  });
});

describe('feedback and subscribers', () => {
  it('finds feedback by a sender’s name and subscribers by the beginning of an address', async () => {
    const post = (url: string, body: object) =>
      fetch(`${journey.shop.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((res) =>
        expect(res.ok).toBe(true),
      );
    await post('/api/feedback', { name: 'Kavya Menon', email: 'kavya@example.com', message: 'Do you gift-wrap?' });
    await post('/api/feedback', { name: 'Rohan Das', email: 'rohan@example.com', message: 'Loved the sample.' });
    for (const email of ['zara.one@example.com', 'zara.two@example.com', 'yusuf@example.com']) await post('/api/newsletter/subscribe', { email });

    await journey.page.goto('/admin/feedbacks');
    await main().locator('li', { hasText: 'Loved the sample.' }).waitFor();
    await main().getByLabel('Search').fill('menon');
    await main().getByRole('button', { name: 'Search', exact: true }).click();
    await settle(() => main().getByRole('status').innerText(), '1 message');
    expect(await main().locator('li').allInnerTexts()).toEqual([expect.stringContaining('Do you gift-wrap?')]);

    await journey.page.goto('/admin/subscribers');
    await main().getByRole('cell', { name: 'yusuf@example.com' }).waitFor();
    await main().getByLabel('Search').fill('ZARA.');
    await main().getByRole('button', { name: 'Search', exact: true }).click();
    await settle(() => main().getByRole('status').innerText(), '2 subscribers');
    expect(await main().locator('tbody td:first-child').allInnerTexts()).toEqual(['zara.two@example.com', 'zara.one@example.com']);
    // Reload keeps the search.
    await journey.page.reload();
    await settle(() => main().getByRole('status').innerText(), '2 subscribers');
    expect(await main().getByLabel('Search').inputValue()).toBe('ZARA.');
  });
});
