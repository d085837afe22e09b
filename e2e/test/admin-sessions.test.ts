// Logging out makes the token unusable everywhere at once: at the gateway and
// at each service asked directly (DESIGN §7).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startShop, type RunningShop } from '@persona/launcher';
import { fromShopTemplate } from './support/shared-fixtures';

describe('admin sessions across the shop', () => {
  let shop: RunningShop;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'persona-admin-'));
    // The run's shop template: a first start already made, with this suite's administrator (TEST_ADMIN).
    await fromShopTemplate(dataDir);
    shop = await startShop({
      dataDir,
      port: 0,
      host: '127.0.0.1',
      env: { ...process.env, ADMIN_EMAIL: 'owner@persona-books.in', ADMIN_PASSWORD: 'correct horse battery', ADMIN_NAME: 'Asha' },
    });
  }, 90_000);
  afterAll(async () => {
    await shop?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('accepts a fresh token everywhere and refuses it everywhere after logout', async () => {
    const login = await fetch(`${shop.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@persona-books.in', password: 'correct horse battery' }),
    });
    expect(login.status).toBe(200);
    const { token, admin } = (await login.json()).data;
    expect(admin).toEqual({ name: 'Asha', email: 'owner@persona-books.in' });
    const auth = { authorization: `Bearer ${token}` };
    const calls = {
      'gateway: create a category': () =>
        fetch(`${shop.url}/api/categories`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `C ${Date.now()}${Math.random()}` }),
        }),
      'catalogue directly: create a category': () =>
        fetch(`${shop.upstreams.catalogue}/api/categories`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `D ${Date.now()}${Math.random()}` }),
        }),
      'gateway: list orders': () => fetch(`${shop.url}/api/orders`, { headers: auth }),
      'orders directly: list orders': () => fetch(`${shop.upstreams.orders}/api/orders`, { headers: auth }),
      'gateway: feedback list': () => fetch(`${shop.url}/api/feedback/all`, { headers: auth }),
      'admin directly: who am I': () => fetch(`${shop.upstreams.admin}/api/admin/me`, { headers: auth }),
    };
    for (const [label, call] of Object.entries(calls))
      expect({ label, status: (await call()).status }).toEqual({ label, status: label.includes('create') ? 201 : 200 });

    expect((await fetch(`${shop.url}/api/admin/logout`, { method: 'POST', headers: auth })).status).toBe(200);
    for (const [label, call] of Object.entries(calls)) expect({ label, status: (await call()).status }).toEqual({ label, status: 401 });
  });

  it('answers a wrong password with "Invalid credentials"', async () => {
    const res = await fetch(`${shop.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@persona-books.in', password: 'nope' }),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).message).toBe('Invalid credentials');
  });
});
