// The distributed mode as separate processes on the real PostgreSQL and
// RabbitMQ: books are read through the gateway, and a catalogue change
// travels through the outbox to the RabbitMQ exchange.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connect } from 'amqplib';
import { Client } from 'pg';
import { startDistributed, type RunningDistributed } from '@persona/launcher';
import { EVENTS_EXCHANGE } from '@persona/contracts';
import { describeWithPostgres, describeWithRabbit, TEST_AMQP_URL, TEST_DATABASE_URL, uniqueName } from '@persona/test-kit';

describeWithPostgres()('distributed mode', () => {
  describeWithRabbit()('as separate processes', () => {
    const dbName = uniqueName('persona_e2e');
    let dataDir: string;
    let shop: RunningDistributed;
    let adminToken: string;
    const logs: string[] = [];

    beforeAll(async () => {
      const admin = new Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${dbName}`);
      await admin.end();
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'persona-distributed-'));
      const url = new URL(TEST_DATABASE_URL);
      url.pathname = `/${dbName}`;
      shop = await startDistributed({
        databaseUrl: url.toString(),
        amqpUrl: TEST_AMQP_URL,
        dataDir,
        port: 0, // the gateway and every service on a free port
        logLevel: 'warn',
        output: (service, line) => logs.push(`[${service}] ${line}`),
        serviceEnv: { admin: { ADMIN_EMAIL: 'owner@persona-books.in', ADMIN_PASSWORD: 'correct horse battery' } },
      });
      const login = await fetch(`${shop.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@persona-books.in', password: 'correct horse battery' }),
      });
      adminToken = (await login.json()).data.token;
    }, 90_000);

    afterAll(async () => {
      await shop?.close();
      const admin = new Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
      await rm(dataDir, { recursive: true, force: true });
      if (logs.some((l) => /"level":(50|60)/.test(l))) console.warn(logs.join('\n'));
    });

    it('runs each service as its own process', () => {
      const pids = Object.values(shop.processes).map((p) => p.pid);
      expect(Object.keys(shop.processes)).toEqual(['catalogue', 'admin', 'orders', 'personalization', 'gateway']);
      expect(new Set(pids).size).toBe(5);
      expect(pids).not.toContain(process.pid);
    });

    it('reads the seeded books through the gateway', async () => {
      const list = await (await fetch(`${shop.url}/api/books?limit=100`)).json();
      expect(list.meta.total).toBeGreaterThanOrEqual(12);
      const first = list.data[0];
      const one = await fetch(`${shop.url}/api/books/${first._id}`);
      expect(one.status).toBe(200);
      expect((await one.json()).data.title).toBe(first.title);
      const cover = await fetch(`${shop.url}${first.coverImage.url}`);
      expect(cover.headers.get('content-type')).toBe('image/jpeg');
      const page = await fetch(`${shop.url}/book/${first._id}`);
      expect(await page.text()).toContain(`<title>${first.title.replace(/&/g, '&amp;')} by`);
      const ready = await (await fetch(`${shop.url}/readyz`)).json();
      expect(ready).toMatchObject({ status: 'ready', checks: { catalogue: 'ok', orders: 'ok', personalization: 'ok', admin: 'ok' } });
    });

    it('publishes a committed change to RabbitMQ through the outbox', async () => {
      const connection = await connect(TEST_AMQP_URL);
      const channel = await connection.createChannel();
      const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
      await channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
      await channel.bindQueue(queue, EVENTS_EXCHANGE, 'category.*');
      const received = new Promise<{ type: string; payload: { name: string } }>((resolve) => {
        void channel.consume(queue, (msg) => {
          if (!msg) return;
          const event = JSON.parse(msg.content.toString());
          if (event.payload?.name === 'Distributed Poetry') resolve(event);
        });
      });
      const res = await fetch(`${shop.url}/api/categories`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
        body: JSON.stringify({ name: 'Distributed Poetry' }),
      });
      expect(res.status).toBe(201);
      const event = await received;
      expect(event.type).toBe('category.created');
      await connection.close();
    });
  });
});
