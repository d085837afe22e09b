// The distributed mode as separate processes on the real PostgreSQL and RabbitMQ, one cluster for
// every journey of this file (a five-process start is the slow part): books are read through the
// gateway, a catalogue change travels through the outbox to the RabbitMQ exchange, a personalisation
// worker killed with SIGKILL in the middle of a Persona has its message delivered again and exactly
// one Persona results, and a book whose source cannot be read ends as persona.failed, visible on the
// order, with its message in the dead-letter queue.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connect } from 'amqplib';
import { Client } from 'pg';
import { startDistributed, type RunningDistributed } from '@persona/launcher';
import { EVENTS_EXCHANGE } from '@persona/contracts';
import { describeWithPostgres, describeWithRabbit, TEST_AMQP_URL, TEST_DATABASE_URL, uniqueName } from '@persona/test-kit';
import { buyPersonaThroughApi } from './support/shop';

describeWithPostgres()('distributed mode', () => {
  describeWithRabbit()('as separate processes on the real PostgreSQL and RabbitMQ', () => {
    const dbName = uniqueName('persona_e2e');
    let dataDir: string;
    let shop: RunningDistributed;
    let adminToken: string;
    let admin: string;
    let db: Client;
    const logs: string[] = [];
    const waiters: Array<{ test: (line: string) => boolean; resolve: () => void }> = [];

    beforeAll(async () => {
      const root = new Client({ connectionString: TEST_DATABASE_URL });
      await root.connect();
      await root.query(`CREATE DATABASE ${dbName}`);
      await root.end();
      const url = new URL(TEST_DATABASE_URL);
      url.pathname = `/${dbName}`;
      db = new Client({ connectionString: url.toString() });
      await db.connect();
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'persona-distributed-'));
      shop = await startDistributed({
        databaseUrl: url.toString(),
        amqpUrl: TEST_AMQP_URL,
        dataDir,
        port: 0, // the gateway and every service on a free port
        logLevel: 'warn',
        serviceEnv: {
          // The worker logs when it starts a Persona (the SIGKILL waits for that line); a book it cannot read fails fast.
          personalization: { LOG_LEVEL: 'info', PERSONA_MAX_ATTEMPTS: '2', PERSONA_RETRY_DELAYS_MS: '300' },
          admin: { ADMIN_EMAIL: 'owner@persona-books.in', ADMIN_PASSWORD: 'correct horse battery' },
        },
        output: (service, line) => {
          logs.push(`[${service}] ${line}`);
          for (const w of [...waiters]) {
            if (w.test(line)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve();
            }
          }
        },
      });
      const login = await fetch(`${shop.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@persona-books.in', password: 'correct horse battery' }),
      });
      adminToken = (await login.json()).data.token;
      admin = `Bearer ${adminToken}`;
    }, 120_000);

    afterAll(async () => {
      await shop?.close();
      await db?.end();
      const root = new Client({ connectionString: TEST_DATABASE_URL });
      await root.connect();
      await root.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await root.end();
      await rm(dataDir, { recursive: true, force: true });
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

    const api = async (p: string, init: RequestInit = {}) => fetch(`${shop.url}${p}`, init);
    const json = async (p: string, init: RequestInit = {}) => (await api(p, init)).json();

    async function addBook(title: string, files: { content?: string[]; fullPdf?: Buffer }): Promise<string> {
      const categories = (await json('/api/categories')).data;
      const form = new FormData();
      form.append('title', title);
      form.append('author', 'Test Author');
      form.append('description', 'A book made by the distributed test.');
      form.append('category', categories[0]._id);
      form.append('price', '199');
      if (files.content) form.append('content', JSON.stringify(files.content));
      if (files.fullPdf) form.append('fullPdf', new Blob([new Uint8Array(files.fullPdf)], { type: 'application/pdf' }), 'book.pdf');
      const res = await api('/api/books', { method: 'POST', body: form, headers: { authorization: admin } });
      expect(res.status).toBe(201);
      return (await res.json()).data._id;
    }

    const buy = (bookId: string, fullName: string) => buyPersonaThroughApi(shop.url, { bookId, fullName });

    async function orderWhen(personaId: string, done: (o: { personaStatus: string }) => boolean, ms = 90_000) {
      const end = Date.now() + ms;
      for (;;) {
        const order = (await json(`/api/orders/${personaId}`)).data;
        if (order && done(order)) return order;
        // A Persona that failed for good will not turn ready: say at once why it failed, from its row and the worker's log.
        const failedForGood = order?.personaStatus === 'failed';
        if (Date.now() > end || failedForGood) {
          const { rows } = await db.query('SELECT error FROM personalization.personas WHERE persona_id = $1', [personaId]);
          const attempts = logs.filter((l) => l.includes('persona not made') || l.includes('persona failed after'));
          throw new Error(
            `order ${personaId} stayed ${JSON.stringify(order)}\nrecorded error: ${rows[0]?.error ?? '(none)'}\n${attempts.join('\n')}\n${logs.slice(-30).join('\n')}`,
          );
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    }

    const count = async (q: string, params: unknown[]) => Number((await db.query(q, params)).rows[0].n);

    it('survives a worker killed mid-generation: redelivered, exactly one Persona', async () => {
      const words = 'the lamp on the headland turned its patient beam across the water while the keeper wrote';
      const content = Array.from({ length: 360 }, (_, i) => (i % 30 === 0 ? `# Chapter ${i / 30 + 1}` : `${words} ${words} ${words} (${i}).`));
      const bookId = await addBook('The Long Lighthouse Book', { content });
      const making = new Promise<void>((resolve) => waiters.push({ test: (l) => l.includes('"msg":"making persona"'), resolve }));
      const { orderId, personaId } = await buy(bookId, 'Zoë Ünal');
      await making;
      shop.processes.personalization.kill('SIGKILL');
      // Killed before it could record anything.
      expect(await count('SELECT count(*) AS n FROM personalization.personas WHERE persona_id = $1', [personaId])).toBe(0);
      await shop.restart('personalization');
      const order = await orderWhen(personaId, (o) => o.personaStatus === 'ready');
      expect(order.personalizedPdfUrl).toBe(`/api/personas/${personaId}/download`);
      expect(await count('SELECT count(*) AS n FROM personalization.personas WHERE persona_id = $1', [personaId])).toBe(1);
      expect(
        await count(`SELECT count(*) AS n FROM personalization.outbox WHERE type = 'persona.ready' AND envelope->'payload'->>'personaId' = $1`, [personaId]),
      ).toBe(1);
      await new Promise((r) => setTimeout(r, 500));
      // The Persona's ready e-mail once, never twice, and one receipt: the confirmation if it went first (a minute after
      // payment), else the ready e-mail is the receipt too.
      expect(await count(`SELECT count(*) AS n FROM orders.emails WHERE order_id = $1 AND kind = 'persona-ready'`, [orderId])).toBe(1);
      expect(
        await count(
          `SELECT count(*) AS n FROM orders.emails WHERE order_id = $1 AND (kind = 'order-confirmed' OR text_body LIKE '%This e-mail is your receipt.%')`,
          [orderId],
        ),
      ).toBe(1);
      const pdf = await api(`/api/personas/${personaId}/download`);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect((await pdf.arrayBuffer()).byteLength).toBeGreaterThan(50_000);
      expect((await json(`/api/personas/${personaId}/verify`)).data.valid).toBe(true);
    }, 180_000);

    it('ends a book whose source cannot be read as persona.failed, on the order and in the dead-letter queue', async () => {
      const bookId = await addBook('The Unreadable Book', { fullPdf: Buffer.from('%PDF-1.4\n%%EOF\n') });
      const { personaId } = await buy(bookId, 'Ananya Rao');
      const order = await orderWhen(personaId, (o) => o.personaStatus === 'failed', 60_000);
      expect(order.personalizedPdfUrl).toBeNull();
      const connection = await connect(TEST_AMQP_URL);
      const channel = await connection.createChannel();
      let found = false;
      const seen = [];
      for (;;) {
        const msg = await channel.get('personalization.orders.dlq', { noAck: false });
        if (!msg) break;
        seen.push(msg);
        if (JSON.parse(msg.content.toString()).payload?.personaId === personaId) found = true;
      }
      for (const msg of seen) channel.nack(msg, false, true);
      await connection.close();
      expect(found).toBe(true);
    }, 120_000);
  });
});
