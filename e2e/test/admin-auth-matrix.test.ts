// Every admin route refuses every kind of bad credential with 401 and a
// message that says why, at the gateway and again at the owning service asked
// directly (DESIGN §7), before looking at the input, and writes nothing.
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isAdminRoute } from '@persona/contracts';
import { startShop, type RunningShop } from '@persona/launcher';
import { fromShopTemplate } from './support/shared-fixtures';

type Service = keyof RunningShop['upstreams'];
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const ADMIN = { email: 'owner@persona-books.in', password: 'correct horse battery' };

interface Ids {
  book: string;
  category: string;
  order: string;
  feedback: string;
}

interface AdminRoute {
  method: Method;
  /** As written in the owning service's src/routes. */
  pattern: string;
  service: Service;
  /** A body that would be accepted if the token were good, so a leak would write something. */
  body?: () => BodyInit;
  json?: boolean;
}

/** A coupon code a leak would create. */
const MATRIX_COUPON = {
  code: 'MATRIX-100',
  percentOff: 100,
  amountOffPaise: null,
  minOrderPaise: 0,
  validFrom: null,
  validTo: null,
  bookIds: [],
  totalLimit: null,
  perEmailLimit: null,
  active: true,
};

/** Every admin route of the shop. The last test checks this list against the services' sources. */
const ROUTES: AdminRoute[] = [
  { method: 'POST', pattern: '/api/books', service: 'catalogue', body: () => bookForm('Matrix book') },
  { method: 'PUT', pattern: '/api/books/:id', service: 'catalogue', body: () => bookForm('Renamed by the matrix') },
  { method: 'DELETE', pattern: '/api/books/:id', service: 'catalogue' },
  { method: 'GET', pattern: '/api/books/:id/content', service: 'catalogue' },
  { method: 'POST', pattern: '/api/categories', service: 'catalogue', body: () => JSON.stringify({ name: 'Matrix category' }), json: true },
  { method: 'PUT', pattern: '/api/categories/:id', service: 'catalogue', body: () => JSON.stringify({ name: 'Renamed by the matrix' }), json: true },
  { method: 'DELETE', pattern: '/api/categories/:id', service: 'catalogue' },
  { method: 'GET', pattern: '/api/orders', service: 'orders' },
  { method: 'GET', pattern: '/api/orders/export', service: 'orders' },
  { method: 'GET', pattern: '/api/orders/dispatch-list', service: 'orders' },
  { method: 'GET', pattern: '/api/orders/summary', service: 'orders' },
  // Public by persona id; by the internal order id, administrators only (checked by the service, not the gateway).
  { method: 'GET', pattern: '/api/orders/:id', service: 'orders' },
  { method: 'PATCH', pattern: '/api/orders/:id/status', service: 'orders', body: () => JSON.stringify({ deliveryStatus: 'cancelled' }), json: true },
  { method: 'POST', pattern: '/api/orders/:id/persona/retry', service: 'orders' },
  // The order page (issue 23); the invoice, like the order, is public by persona id.
  { method: 'GET', pattern: '/api/orders/:id/detail', service: 'orders' },
  { method: 'GET', pattern: '/api/orders/:id/invoice', service: 'orders' },
  {
    method: 'POST',
    pattern: '/api/orders/:id/notes',
    service: 'orders',
    body: () => JSON.stringify({ noteId: randomUUID(), text: 'Written by the matrix' }),
    json: true,
  },
  { method: 'POST', pattern: '/api/orders/:id/emails/:emailId/resend', service: 'orders', body: () => JSON.stringify({ requestId: randomUUID() }), json: true },
  {
    method: 'POST',
    pattern: '/api/orders/:id/refunds',
    service: 'orders',
    body: () => JSON.stringify({ refundId: randomUUID(), amountPaise: 100, reason: 'Refunded by the matrix' }),
    json: true,
  },
  // After the sale (issue 23).
  {
    method: 'POST',
    pattern: '/api/orders/:id/persona/reissue',
    service: 'orders',
    body: () => JSON.stringify({ reissueId: randomUUID(), buyerName: 'Matrix Buyer', reason: 'Re-issued by the matrix' }),
    json: true,
  },
  {
    method: 'POST',
    pattern: '/api/orders/:id/print/cancel',
    service: 'orders',
    body: () => JSON.stringify({ cancelId: randomUUID(), refund: 'print', reason: 'Cancelled by the matrix' }),
    json: true,
  },
  // The owner's monthly reports (issue 23).
  { method: 'GET', pattern: '/api/orders/reports/gst-return', service: 'orders' },
  { method: 'GET', pattern: '/api/orders/reports/settlement', service: 'orders' },
  { method: 'GET', pattern: '/api/orders/reports/settlement/export', service: 'orders' },
  // Coupon codes (issue 23); pricing a code (POST /api/coupons/price) is the checkout's, public.
  { method: 'GET', pattern: '/api/coupons', service: 'orders' },
  {
    method: 'POST',
    pattern: '/api/coupons',
    service: 'orders',
    body: () => JSON.stringify({ couponId: randomUUID(), ...MATRIX_COUPON }),
    json: true,
  },
  { method: 'PUT', pattern: '/api/coupons/:id', service: 'orders', body: () => JSON.stringify({ ...MATRIX_COUPON, active: false }), json: true },
  { method: 'GET', pattern: '/api/coupons/:id/redemptions', service: 'orders' },
  { method: 'GET', pattern: '/api/feedback/all', service: 'admin' },
  { method: 'DELETE', pattern: '/api/feedback/:id', service: 'admin' },
  // A visitor's message marked handled or answered by e-mail (issue 24).
  { method: 'PATCH', pattern: '/api/feedback/:id', service: 'admin', body: () => JSON.stringify({ handled: true }), json: true },
  { method: 'POST', pattern: '/api/feedback/:id/answer', service: 'admin', body: () => JSON.stringify({ text: 'Answered by the matrix' }), json: true },
  { method: 'POST', pattern: '/api/admin/logout', service: 'admin' },
  { method: 'GET', pattern: '/api/admin/me', service: 'admin' },
  { method: 'GET', pattern: '/api/admin/audit', service: 'admin' },
  { method: 'GET', pattern: '/api/admin/subscribers', service: 'admin' },
  { method: 'GET', pattern: '/api/admin/subscribers/export', service: 'admin' },
  { method: 'POST', pattern: '/api/personas/leaks', service: 'personalization', body: () => leakForm() },
  // A Persona's downloads reset or stopped by the owner (issue 24); the bad token is refused before the Persona is looked for.
  {
    method: 'POST',
    pattern: '/api/personas/:personaId/downloads/reset',
    service: 'personalization',
    body: () => JSON.stringify({ reason: 'Reset by the matrix' }),
    json: true,
  },
  {
    method: 'POST',
    pattern: '/api/personas/:personaId/downloads/revoke',
    service: 'personalization',
    body: () => JSON.stringify({ reason: 'Stopped by the matrix' }),
    json: true,
  },
];

/** Routes a bad token reaches at the service because the gateway lets them through without one. */
const SERVICE_CHECKED_ONLY = new Set(['GET /api/orders/:id', 'GET /api/orders/:id/invoice']);

/** A copy to trace: the answer would name an order, so nothing may reach the route without a good token. */
function leakForm(): FormData {
  const form = new FormData();
  form.append('file', new Blob(['%PDF-1.4\n%%EOF\n'], { type: 'application/pdf' }), 'found.pdf');
  return form;
}

function bookForm(title: string): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries({ title, author: 'A. Matrix', description: 'Written by a test', price: '199', printingCost: '50', tags: 'test' }))
    form.append(k, v);
  return form;
}

/** A well-formed Persona ID (the matrix's order is unpaid, so it has none made). */
const MATRIX_PERSONA_ID = 'PRS-0000-0000-0000-0001';

/** The route's path with real ids, so a leaked write would change something (and no 400 can stand in for the 401). */
function pathFor(route: AdminRoute, ids: Ids): string {
  const resource = route.pattern.startsWith('/api/books')
    ? ids.book
    : route.pattern.startsWith('/api/categories')
      ? ids.category
      : route.pattern.startsWith('/api/orders')
        ? ids.order
        : ids.feedback;
  // An e-mail of the order: any id (the bad token is refused before it is looked for).
  return route.pattern.replace(':id', resource).replace(':emailId', '00000000-0000-4000-8000-000000000001').replace(':personaId', MATRIX_PERSONA_ID);
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
function signHs256(header: object, payload: object, secret: string): string {
  const unsigned = `${b64(header)}.${b64(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

interface Credential {
  label: string;
  headers: Record<string, string>;
  message: RegExp;
}

describe('admin routes refuse every bad credential', () => {
  let shop: RunningShop;
  let dataDir: string;
  let jwtSecret: string;
  let liveToken: string;
  let ids: Ids;
  let credentials: Credential[];
  let refusals = 0;

  const gatewayAndService = (route: AdminRoute) =>
    [
      ['gateway', shop.url],
      [route.service, shop.upstreams[route.service]],
    ] as const;

  async function login(): Promise<string> {
    const res = await fetch(`${shop.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { token: string } }).data.token;
  }

  async function getJson(url: string, token: string) {
    const res = await fetch(`${shop.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
    expect({ url, status: res.status }).toEqual({ url, status: 200 });
    return res.json();
  }

  /** Everything an admin route could change, read with a good token. */
  async function snapshot(token: string) {
    return {
      categories: await getJson('/api/categories', token),
      books: await getJson('/api/books?limit=100', token),
      book: await getJson(`/api/books/${ids.book}`, token),
      content: await getJson(`/api/books/${ids.book}/content`, token),
      feedback: await getJson('/api/feedback/all?limit=100', token),
      orders: await getJson('/api/orders?limit=100', token),
      order: await getJson(`/api/orders/${ids.order}`, token),
      subscribers: await getJson('/api/admin/subscribers?limit=100', token),
      coupons: await getJson('/api/coupons', token),
    };
  }
  let before: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'persona-auth-matrix-'));
    // The run's shop template: a first start already made, with this suite's administrator (TEST_ADMIN).
    await fromShopTemplate(dataDir);
    shop = await startShop({
      dataDir,
      port: 0,
      host: '127.0.0.1',
      env: { ...process.env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Asha' },
    });
    // The shop reads JWT_SECRET from process.env (not from `env`), else generates one into secrets.json.
    jwtSecret = process.env.JWT_SECRET ?? (JSON.parse(await readFile(path.join(dataDir, 'secrets.json'), 'utf8')) as { jwtSecret: string }).jwtSecret;

    liveToken = await login();
    const auth = { authorization: `Bearer ${liveToken}` };

    // Real rows for every :id, so a leaked write would show in the snapshot.
    const books = (await getJson('/api/books?limit=100', liveToken)) as { data: Array<{ _id: string }> };
    const categories = (await getJson('/api/categories', liveToken)) as { data: Array<{ _id: string }> };
    const initiated = await fetch(`${shop.url}/api/payments/initiate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        book: books.data[0]._id,
        fullName: 'Zoë Matrix',
        email: 'zoe@example.com',
        phone: '+91 98765 43210',
        deliveryType: 'digital',
        address: null,
      }),
    });
    expect(initiated.status).toBe(200);
    const feedback = await fetch(`${shop.url}/api/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Meera', email: 'meera@example.com', message: 'Keep this message' }),
    });
    expect(feedback.status).toBe(201);
    expect(
      (
        await fetch(`${shop.url}/api/newsletter/subscribe`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'reader@example.com' }),
        })
      ).status,
    ).toBe(200);
    ids = {
      book: books.data[0]._id,
      category: categories.data[0]._id,
      order: ((await initiated.json()) as { data: { orderId: string } }).data.orderId,
      feedback: ((await feedback.json()) as { data: { _id: string } }).data._id,
    };
    expect(Object.values(ids).every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id))).toBe(true);

    // Bad tokens, all made from the real one.
    const [headerPart, payloadPart, signature] = liveToken.split('.');
    const header = decode(headerPart);
    const payload = decode(payloadPart);
    const now = Math.floor(Date.now() / 1000);
    const loggedOut = await login();
    expect((await fetch(`${shop.url}/api/admin/logout`, { method: 'POST', headers: { authorization: `Bearer ${loggedOut}` } })).status).toBe(200);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    credentials = [
      { label: 'no token', headers: {}, message: /^Authentication required/ },
      // The real secret and a live session: only the expiry is wrong.
      {
        label: 'an expired token',
        headers: bearer(signHs256(header, { ...payload, iat: now - 7200, exp: now - 60 }, jwtSecret)),
        message: /^Your session has expired, please log in again$/,
      },
      {
        label: 'a token signed by another key',
        headers: bearer(signHs256(header, payload, `not-the-shop-secret-${randomUUID()}`)),
        message: /^Invalid admin token$/,
      },
      { label: 'an alg:none token', headers: bearer(`${b64({ ...header, alg: 'none' })}.${payloadPart}.`), message: /^Invalid admin token$/ },
      {
        label: 'a tampered token (payload changed, signature kept)',
        headers: bearer(`${headerPart}.${b64({ ...payload, sub: randomUUID(), exp: now + 86_400 * 365 })}.${signature}`),
        message: /^Invalid admin token$/,
      },
      { label: 'a malformed token', headers: bearer(`${headerPart}.not-base64-json!.${signature}`), message: /^Invalid admin token$/ },
      { label: 'a logged-out token', headers: bearer(loggedOut), message: /^This session has been logged out, please log in again$/ },
    ];
    expect((await fetch(`${shop.url}/api/admin/me`, { headers: auth })).status).toBe(200);

    before = await snapshot(liveToken);
  }, 90_000);

  afterAll(async () => {
    await shop?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('knows every admin route the gateway guards (and the one the service guards alone)', () => {
    for (const route of ROUTES) {
      const concrete = route.pattern.replace(':id', randomUUID());
      expect({ route: `${route.method} ${route.pattern}`, gateway: isAdminRoute(route.method, concrete) }).toEqual({
        route: `${route.method} ${route.pattern}`,
        gateway: !SERVICE_CHECKED_ONLY.has(`${route.method} ${route.pattern}`),
      });
    }
  });

  it('answers 401 with a reason to every bad credential on every admin route, at the gateway and at the service', async () => {
    const failures: unknown[] = [];
    for (const route of ROUTES) {
      for (const credential of credentials) {
        for (const [entry, base] of gatewayAndService(route)) {
          const headers: Record<string, string> = { ...credential.headers, ...(route.json ? { 'content-type': 'application/json' } : {}) };
          const res = await fetch(`${base}${pathFor(route, ids)}`, { method: route.method, headers, body: route.body?.() });
          const text = await res.text();
          let body: { statusCode?: number; error?: string; message?: string } = {};
          try {
            body = JSON.parse(text);
          } catch {
            // reported below
          }
          const ok =
            res.status === 401 &&
            /^application\/json/.test(res.headers.get('content-type') ?? '') &&
            body.statusCode === 401 &&
            body.error === 'Unauthorized' &&
            credential.message.test(body.message ?? '');
          if (ok) refusals += 1;
          else failures.push({ route: `${route.method} ${route.pattern}`, credential: credential.label, entry, status: res.status, body: text.slice(0, 300) });
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('checks the token before the input: a malformed id or query without a token is 401, not 400', async () => {
    const cases: Array<[Method, string, Service]> = [
      ['DELETE', '/api/books/not-a-uuid', 'catalogue'],
      ['GET', '/api/books/not-a-uuid/content', 'catalogue'],
      ['PUT', '/api/categories/not-a-uuid', 'catalogue'],
      ['GET', '/api/orders?limit=abc', 'orders'],
      ['PATCH', '/api/orders/not-a-uuid/status', 'orders'],
      ['POST', '/api/orders/not-a-uuid/persona/retry', 'orders'],
      ['GET', '/api/feedback/all?limit=0', 'admin'],
      ['DELETE', '/api/feedback/not-a-uuid', 'admin'],
      ['GET', '/api/admin/subscribers?page=-1', 'admin'],
      ['GET', '/api/admin/subscribers/export?format=xlsx', 'admin'],
      ['GET', '/api/admin/audit?unknown=1', 'admin'],
    ];
    for (const [method, url, service] of cases) {
      for (const base of [shop.url, shop.upstreams[service]]) {
        const res = await fetch(`${base}${url}`, { method });
        const body = (await res.json()) as { message: string };
        expect({ method, url, base, status: res.status, message: body.message }).toEqual({
          method,
          url,
          base,
          status: 401,
          message: expect.stringMatching(/^Authentication required/),
        });
      }
    }
  });

  it('answers bad input on the admin service with 400 and a clear message, once the token is good', async () => {
    const token = await login();
    const cases: Array<[Method, string, string]> = [
      ['DELETE', '/api/feedback/not-a-uuid', 'path field "id" must be a valid id'],
      ...['/api/feedback/all', '/api/admin/subscribers', '/api/admin/audit'].flatMap((list): Array<[Method, string, string]> => [
        ['GET', `${list}?limit=0`, 'query field "limit" must be >= 1'],
        ['GET', `${list}?limit=abc`, 'query field "limit" must be integer'],
        ['GET', `${list}?page=-1`, 'query field "page" must be >= 1'],
        ['GET', `${list}?page=1&role=owner`, 'query field "role" is not allowed'],
      ]),
      ['GET', '/api/admin/subscribers/export?format=xlsx', 'query field "format" is not allowed'],
    ];
    for (const [method, url, message] of cases) {
      for (const base of [shop.url, shop.upstreams.admin]) {
        const res = await fetch(`${base}${url}`, { method, headers: { authorization: `Bearer ${token}` } });
        expect({ method, url, base, status: res.status, message: ((await res.json()) as { message: string }).message }).toEqual({
          method,
          url,
          base,
          status: 400,
          message,
        });
      }
    }
  });

  it('wrote nothing: the lists read the same with a fresh login, and the first session still works', async () => {
    const token = await login();
    expect(await snapshot(token)).toEqual(before);
    expect((await fetch(`${shop.url}/api/admin/me`, { headers: { authorization: `Bearer ${liveToken}` } })).status).toBe(200);
    const checks = ROUTES.length * credentials.length * 2;
    expect(refusals).toBe(checks);
    console.log(`admin auth matrix: ${ROUTES.length} routes × ${credentials.length} credentials × 2 entry points = ${refusals} refusals`);
  });

  it('covers every route the services guard with an admin check', async () => {
    const servicesDir = path.resolve(__dirname, '../../services');
    const guarded: string[] = [];
    for (const service of await readdir(servicesDir)) {
      if (service === 'gateway') continue;
      const routesDir = path.join(servicesDir, service, 'src', 'routes');
      const files = await readdir(routesDir).catch(() => [] as string[]);
      for (const file of files.filter((f) => f.endsWith('.ts'))) {
        const source = await readFile(path.join(routesDir, file), 'utf8');
        const starts = [...source.matchAll(/app\.(get|post|put|patch|delete)\(\s*'([^']+)'/g)];
        starts.forEach((match, i) => {
          const options = source.slice(match.index, starts[i + 1]?.index ?? source.length);
          if (/adminOnly|verifier\(|byOrderOrPersonaId/.test(options)) guarded.push(`${match[1].toUpperCase()} ${match[2]}`);
        });
      }
    }
    expect(guarded.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.pattern}`).sort());
  });
});
