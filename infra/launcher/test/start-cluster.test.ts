// The cluster (issue 25, `npm run start:cluster`) on the real PostgreSQL, RabbitMQ and Redis, with
// the s3rver it starts itself: two processes of every service and two gateways behind nginx.
// Requests through nginx reach both gateways (nginx's access log names the replica of each), a
// catalogue replica killed is routed around, and restarted it serves again.
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import {
  describeWithPostgres,
  describeWithPrograms,
  describeWithRabbit,
  describeWithRedis,
  NGINX,
  TEST_AMQP_URL,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  uniqueName,
} from '@persona/test-kit';
import { freePort } from '../src/free-port';
import { nginxConfig } from '../src/nginx';
import { missingServers, startCluster, type RunningCluster } from '../src/start-cluster';

/** One command to the test Redis (RESP over a socket); its answer as text, null for none. */
function redisCommand(...args: string[]): Promise<string | null> {
  const u = new URL(TEST_REDIS_URL);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port || 6379), u.hostname);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const reply = data.replace(/\+OK\r\n$/, '');
      if (reply.startsWith('$-1')) resolve(null);
      else if (reply.startsWith('$')) resolve(reply.split('\r\n')[1]!);
      else if (reply.startsWith(':')) resolve(reply.slice(1).trim());
      else reject(new Error(`Redis answered ${reply}`));
    });
    const command = (parts: string[]) => `*${parts.length}\r\n${parts.map((p) => `$${Buffer.byteLength(p)}\r\n${p}\r\n`).join('')}`;
    socket.write(command(args) + command(['QUIT']));
  });
}

/** A GET from a chosen local address (fetch cannot choose one); its status. */
function getFrom(localAddress: string, url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.get({ host: '127.0.0.1', port: u.port, path: `${u.pathname}${u.search}`, localAddress, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

describe("the cluster's nginx configuration", () => {
  const conf = nginxConfig({
    prefix: '/tmp/p',
    publicPort: 8080,
    publicHost: '0.0.0.0',
    gateways: [8081, 8082],
    services: [{ name: 'orders', listen: 3002, servers: [3102, 3202] }],
  });

  it('keeps every file nginx writes under its prefix', () => {
    expect(conf).toContain('pid /tmp/p/nginx.pid;');
    expect(conf).toContain('access_log /tmp/p/logs/access.log cluster;');
    for (const temp of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) expect(conf).toMatch(new RegExp(`${temp}_temp_path /tmp/p/tmp/`));
    expect(conf).not.toMatch(/\/var\/|\/etc\//);
  });

  it('balances each service and the gateways, passing a failed replica on, and sets the client address for the gateways only', () => {
    expect(conf).toMatch(/upstream orders \{\s+server 127\.0\.0\.1:3102 max_fails=1 fail_timeout=5s;\s+server 127\.0\.0\.1:3202 [^;]*;\s+keepalive 16;/);
    expect(conf).toMatch(/upstream gateways \{\s+server 127\.0\.0\.1:8081 [^;]*;\s+server 127\.0\.0\.1:8082 /);
    expect(conf).toContain('listen 127.0.0.1:3002;');
    expect(conf).toContain('listen 0.0.0.0:8080;');
    expect(conf.match(/proxy_next_upstream error timeout http_502 http_503;/g)).toHaveLength(2);
    // The client's address replaces whatever X-Forwarded-For it sent, once: at the public entry.
    expect(conf.match(/proxy_set_header X-Forwarded-For \$remote_addr;/g)).toHaveLength(1);
    expect(conf.indexOf('X-Forwarded-For $remote_addr')).toBeLessThan(conf.indexOf('listen 127.0.0.1:3002'));
  });
});

describe('the servers a cluster needs', () => {
  it('names each one that does not answer', async () => {
    const closed = `127.0.0.1:${await freePort()}`;
    expect(await missingServers({ Redis: `redis://${closed}`, RabbitMQ: `amqp://guest:guest@${closed}` })).toEqual([
      `Redis does not answer at redis://${closed}`,
      `RabbitMQ does not answer at amqp://${closed}`,
    ]);
  });
});

describeWithPrograms([NGINX], 'the cluster (its gateways run behind nginx)')('the cluster', () => {
  describeWithPostgres()('on PostgreSQL', () => {
    describeWithRabbit()('on RabbitMQ', () => {
      describeWithRedis()('and Redis', () => {
        const dbName = uniqueName('persona_cluster');
        const onRoot = async (statement: string) => {
          const root = new Client({ connectionString: TEST_DATABASE_URL });
          await root.connect();
          try {
            await root.query(statement);
          } finally {
            await root.end();
          }
        };
        let dataDir: string;
        let cluster: RunningCluster;
        const logs: string[] = [];

        beforeAll(async () => {
          await onRoot(`CREATE DATABASE ${dbName}`);
          const url = new URL(TEST_DATABASE_URL);
          url.pathname = `/${dbName}`;
          dataDir = await mkdtemp(path.join(os.tmpdir(), 'persona-cluster-'));
          cluster = await startCluster({
            databaseUrl: url.toString(),
            amqpUrl: TEST_AMQP_URL,
            redisUrl: TEST_REDIS_URL,
            dataDir,
            port: 0,
            logLevel: 'warn',
            // Ten Node processes on a small machine start slowly.
            readyTimeoutMs: 120_000,
            s3Env: {},
            output: (name, line) => logs.push(`[${name}] ${line}`),
          });
        }, 400_000);

        afterAll(async () => {
          await cluster?.close();
          await onRoot(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
          await rm(dataDir, { recursive: true, force: true });
          if (logs.some((l) => /"level":(50|60)|\[(emerg|alert|crit)\]/.test(l))) console.warn(logs.slice(-80).join('\n'));
        }, 60_000);

        const accessLog = async () => (await readFile(path.join(cluster.nginxPrefix!, 'logs', 'access.log'), 'utf8')).split('\n').filter(Boolean);

        it('runs two processes of every service and two gateways, behind nginx', () => {
          expect(cluster.replicas).toEqual({
            catalogue: ['catalogue-1', 'catalogue-2'],
            admin: ['admin-1', 'admin-2'],
            orders: ['orders-1', 'orders-2'],
            personalization: ['personalization-1', 'personalization-2'],
            gateway: ['gateway-1', 'gateway-2'],
          });
          const pids = Object.values(cluster.processes).map((p) => p.pid);
          expect(Object.keys(cluster.processes)).toContain('nginx');
          expect(new Set(pids).size).toBe(11);
          expect(cluster.s3).toMatchObject({ bucket: 'persona', local: true });
        });

        it('answers through nginx from both gateways, and the books, seeded once, from the shared store', async () => {
          for (let i = 0; i < 6; i++) {
            const ready = await fetch(`${cluster.url}/readyz`);
            expect(ready.status).toBe(200);
            expect(await ready.json()).toMatchObject({ status: 'ready', checks: { catalogue: 'ok', orders: 'ok', personalization: 'ok', admin: 'ok' } });
            const books = await fetch(`${cluster.url}/api/books?limit=${100 - i}`);
            expect(books.status).toBe(200);
            const list = (await books.json()) as { data: Array<{ title: string; coverImage: { url: string } }>; meta: { total: number } };
            expect(list.meta.total).toBe(new Set(list.data.map((b) => b.title)).size);
            expect(list.meta.total).toBeGreaterThanOrEqual(12);
            // A cover the seeding replica wrote, read by whichever replica nginx picks: from S3.
            const cover = await fetch(`${cluster.url}${list.data[i]!.coverImage.url}`);
            expect(cover.status).toBe(200);
            expect(cover.headers.get('content-type')).toBe('image/jpeg');
          }
          const publicPort = new URL(cluster.url).port;
          const gatewaysSeen = new Set((await accessLog()).filter((l) => l.includes(`server=${publicPort} `)).map((l) => /upstream=(\S+)/.exec(l)![1]));
          expect(gatewaysSeen.size).toBe(2);
          // The gateways reached the catalogue through nginx too, both replicas of it.
          const cataloguePort = /listen 127\.0\.0\.1:(\d+);\s+location \/ \{\s+proxy_pass http:\/\/catalogue;/.exec(
            await readFile(path.join(cluster.nginxPrefix!, 'nginx.conf'), 'utf8'),
          )![1];
          const cataloguesSeen = new Set((await accessLog()).filter((l) => l.includes(`server=${cataloguePort} `)).map((l) => /upstream=(\S+)/.exec(l)![1]));
          expect(cataloguesSeen.size).toBe(2);
        });

        it("keys the gateways' shared rate limit on the client nginx saw, never on an X-Forwarded-For the client sent", async () => {
          // From 127.0.0.2 (nginx itself reaches the gateways from 127.0.0.1), with a forged address.
          const key = (address: string) => `persona:rl:gateway:${address}`;
          const before = Number((await redisCommand('GET', key('127.0.0.2'))) ?? 0);
          for (let i = 0; i < 3; i++) {
            expect(await getFrom('127.0.0.2', `${cluster.url}/api/books?limit=${i + 1}`, { 'x-forwarded-for': '203.0.113.7' })).toBe(200);
          }
          // Counted in Redis under the client's address, by whichever gateway answered: three more.
          expect(Number(await redisCommand('GET', key('127.0.0.2'))) - before).toBe(3);
          expect(await redisCommand('EXISTS', key('203.0.113.7'))).toBe('0');
        });

        it('sells a Persona whose steps reach different replicas, and serves it through either gateway', async () => {
          const post = async (route: string, body: unknown) => {
            const res = await fetch(`${cluster.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
            expect(res.status).toBe(200);
            return ((await res.json()) as { data: Record<string, string> }).data;
          };
          const books = (await (await fetch(`${cluster.url}/api/books?limit=1`)).json()) as { data: Array<{ _id: string }> };
          const checkoutFrom = (await accessLog()).length;
          const order = await post('/api/payments/initiate', {
            book: books.data[0]!._id,
            fullName: 'Cluster Buyer',
            email: 'cluster.buyer@example.com',
            phone: '+91 98765 43210',
            deliveryType: 'digital',
            address: null,
          });
          // Each step to whichever orders replica nginx picks; the test-mode stand-in's state is in Redis.
          const paid = await post('/api/payments/test-mode/pay', { razorpayOrderId: order.razorpayOrderId, outcome: 'success' });
          const verified = await post('/api/payments/verify', {
            orderId: order.orderId,
            razorpayOrderId: paid.razorpay_order_id,
            razorpayPaymentId: paid.razorpay_payment_id,
            razorpaySignature: paid.razorpay_signature,
          });
          const ordersPort = /listen 127\.0\.0\.1:(\d+);\s+location \/ \{\s+proxy_pass http:\/\/orders;/.exec(
            await readFile(path.join(cluster.nginxPrefix!, 'nginx.conf'), 'utf8'),
          )![1];
          const ordersSeen = (await accessLog())
            .slice(checkoutFrom)
            .filter((l) => l.includes(`server=${ordersPort} `) && l.includes('/api/payments/'))
            .map((l) => /upstream=(\S+)/.exec(l)![1]);
          expect(ordersSeen).toHaveLength(3);
          expect(new Set(ordersSeen).size).toBe(2);
          const download = `${cluster.url}/api/personas/${verified.personaId}/download`;
          const deadline = Date.now() + 60_000;
          let status = 0;
          while (Date.now() < deadline) {
            const res = await fetch(download);
            status = res.status;
            await res.arrayBuffer();
            if (status === 200) break;
            await new Promise((r) => setTimeout(r, 500));
          }
          expect(status).toBe(200);
          const before = (await accessLog()).length;
          for (let i = 0; i < 4; i++) {
            const res = await fetch(download);
            expect(res.status).toBe(200);
            expect(res.headers.get('content-type')).toBe('application/pdf');
            expect(
              Buffer.from(await res.arrayBuffer())
                .subarray(0, 5)
                .toString(),
            ).toBe('%PDF-');
          }
          // Made by one personalisation replica into S3, served through both gateways (round robin).
          const publicPort = new URL(cluster.url).port;
          const gateways = (await accessLog())
            .slice(before)
            .filter((l) => l.includes(`server=${publicPort} `) && l.includes('/download'))
            .map((l) => /upstream=(\S+)/.exec(l)![1]);
          expect(new Set(gateways).size).toBe(2);
        }, 90_000);

        it('routes around a catalogue replica that is killed, and serves from it again once restarted', async () => {
          const killed = cluster.processes['catalogue-1']!;
          killed.kill('SIGKILL');
          await new Promise((resolve) => killed.once('exit', resolve));
          const statuses: number[] = [];
          for (let i = 0; i < 10; i++) {
            // A different question each time: past the gateway's shared cache, to the catalogue.
            const res = await fetch(`${cluster.url}/api/books?limit=${i + 1}&search=the`);
            statuses.push(res.status);
            await res.arrayBuffer();
          }
          expect(statuses).toEqual(Array(10).fill(200));

          await cluster.restart('catalogue-1');
          expect(cluster.processes['catalogue-1']!.pid).not.toBe(killed.pid);
          const conf = await readFile(path.join(cluster.nginxPrefix!, 'nginx.conf'), 'utf8');
          const cataloguePort = /listen 127\.0\.0\.1:(\d+);\s+location \/ \{\s+proxy_pass http:\/\/catalogue;/.exec(conf)![1];
          const restartedPort = /upstream catalogue \{\s+server (127\.0\.0\.1:\d+)/.exec(conf)![1];
          const before = (await accessLog()).length;
          // nginx tries a replica it marked down again after fail_timeout (5 s): then it answers its share.
          let served = false;
          for (let i = 0; i < 40 && !served; i++) {
            const res = await fetch(`${cluster.url}/api/books?limit=${(i % 20) + 1}&search=${i < 20 ? 'a' : 'e'}`);
            expect(res.status).toBe(200);
            await res.arrayBuffer();
            const answered = (await accessLog()).slice(before).filter((l) => l.includes(`server=${cataloguePort} `));
            served = answered.some((l) => l.includes(`upstream=${restartedPort} `));
            if (!served) await new Promise((r) => setTimeout(r, 500));
          }
          expect(served).toBe(true);
        }, 120_000);
      });
    });
  });
});
