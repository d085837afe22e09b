// The embedded shop: one process, data kept in the data folder across restarts.
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startShop } from '../src/start-shop';
import { loadOrCreateSecrets } from '../src/secrets';

describe('the embedded shop', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'persona-shop-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('starts on a fresh data folder, serves the storefront and the seeded books', async () => {
    const shop = await startShop({ dataDir, port: 0, host: '127.0.0.1', env: {} });
    try {
      const page = await fetch(`${shop.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      const books = (await (await fetch(`${shop.url}/api/books?limit=100`)).json()) as { data: Array<{ title: string }>; meta: { total: number } };
      expect(books.meta.total).toBeGreaterThanOrEqual(12);
      const ready = (await (await fetch(`${shop.url}/readyz`)).json()) as { status: string; checks: Record<string, string> };
      expect(ready.status).toBe('ready');
      // One event loop: the gateway sheds load for the whole shop (SHED_*), the services leave it to it.
      expect(ready.checks.load).toBe('ok');
      const health = async (url: string) => (await (await fetch(`${url}/healthz`)).json()) as { pressure?: { underPressure: boolean } };
      expect((await health(shop.url)).pressure).toMatchObject({ underPressure: false });
      expect((await health(shop.upstreams.catalogue)).pressure).toBeUndefined();
      expect((await stat(path.join(dataDir, 'db', 'PG_VERSION'))).isFile()).toBe(true);
      // No ADMIN_EMAIL/ADMIN_PASSWORD: an administrator is made with a generated password, shown once, that works.
      expect(shop.generatedAdmin).toEqual({ email: 'admin@persona-books.local', password: expect.stringMatching(/^[\w-]{16}$/) });
      const login = await fetch(`${shop.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(shop.generatedAdmin),
      });
      expect(login.status).toBe(200);
    } finally {
      await shop.close();
    }
  }, 60_000);

  it('keeps its data and secret across a restart and does not seed twice', async () => {
    const secret = JSON.parse(await readFile(path.join(dataDir, 'secrets.json'), 'utf8')).jwtSecret;
    const shop = await startShop({ dataDir, port: 0, host: '127.0.0.1', env: {} });
    try {
      const books = (await (await fetch(`${shop.url}/api/books?limit=100`)).json()) as { data: Array<{ title: string }>; meta: { total: number } };
      const titles = books.data.map((b: { title: string }) => b.title);
      expect(new Set(titles).size).toBe(titles.length);
      expect(shop.generatedAdmin).toBeNull();
      expect(JSON.parse(await readFile(path.join(dataDir, 'secrets.json'), 'utf8')).jwtSecret).toBe(secret);
    } finally {
      await shop.close();
    }
  }, 60_000);
});

describe("the embedded shop's configuration", () => {
  const dirs: string[] = [];
  const freshDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'persona-shop-config-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it("reads each service's settings from the environment as the service's own process does", async () => {
    const jwtSecret = 'j'.repeat(48);
    const admin = { email: 'owner@persona-books.in', password: 'a long enough password' };
    const dataDir = await freshDir();
    const shop = await startShop({
      dataDir,
      port: 0,
      host: '127.0.0.1',
      env: {
        JWT_SECRET: jwtSecret,
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
        SEED_DEMO: 'false',
        RATE_LIMIT_MAX: '0',
        PGLITE_SHARED_BUFFERS: '24MB',
      },
    });
    try {
      // PGLITE_SHARED_BUFFERS (the embedded database): its buffer pool.
      const release = await shop.database.lock.acquire();
      try {
        const pool = await shop.database.pglite.query<{ size: string }>("SELECT current_setting('shared_buffers') AS size");
        expect(pool.rows).toEqual([{ size: '24MB' }]);
      } finally {
        release();
      }
      // SEED_DEMO (catalogue) and ADMIN_EMAIL/ADMIN_PASSWORD (admin) hold.
      const books = (await (await fetch(`${shop.url}/api/books?limit=1`)).json()) as { meta: { total: number } };
      expect(books.meta.total).toBe(0);
      expect(shop.generatedAdmin).toBeNull();
      const login = await fetch(`${shop.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(admin),
      });
      expect(login.status).toBe(200);
      // The token is signed with the JWT_SECRET given, which is not written to the data folder.
      const [header, payload, signature] = ((await login.json()) as { data: { token: string } }).data.token.split('.');
      expect(createHmac('sha256', jwtSecret).update(`${header}.${payload}`).digest('base64url')).toBe(signature);
      expect(JSON.parse(await readFile(path.join(dataDir, 'secrets.json'), 'utf8'))).not.toHaveProperty('jwtSecret');
      // RATE_LIMIT_MAX=0 (gateway): no limit headers.
      expect((await fetch(`${shop.url}/api/books?limit=1`)).headers.get('x-ratelimit-limit')).toBeNull();
    } finally {
      await shop.close();
    }
  }, 60_000);

  it('stops naming the variable when a setting is wrong, as a service process does', async () => {
    await expect(startShop({ dataDir: await freshDir(), port: 0, host: '127.0.0.1', env: { SEED_DEMO: 'false', PDF_WORKERS: '0' } })).rejects.toThrow(
      /invalid configuration:[\s\S]*PDF_WORKERS="0"/,
    );
    await expect(
      startShop({ dataDir: await freshDir(), port: 0, host: '127.0.0.1', env: { SEED_DEMO: 'false', PERSONA_RETRY_DELAYS_MS: 'soon' } }),
    ).rejects.toThrow(/PERSONA_RETRY_DELAYS_MS="soon"/);
    await expect(
      startShop({ dataDir: await freshDir(), port: 0, host: '127.0.0.1', env: { SEED_DEMO: 'false', PGLITE_SHARED_BUFFERS: '16 megabytes' } }),
    ).rejects.toThrow(/invalid configuration: PGLITE_SHARED_BUFFERS="16 megabytes"/);
  }, 60_000);
});

describe('secrets', () => {
  it('prefers JWT_SECRET from the environment and refuses a short one', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'persona-secrets-'));
    expect((await loadOrCreateSecrets(dir, { JWT_SECRET: 'x'.repeat(40) })).jwtSecret).toBe('x'.repeat(40));
    await expect(loadOrCreateSecrets(await mkdtemp(path.join(os.tmpdir(), 'persona-secrets-')), { JWT_SECRET: 'short' })).rejects.toThrow(
      'JWT_SECRET must be at least 32 characters',
    );
    await rm(dir, { recursive: true, force: true });
  });
});
