// What both fault scenarios share: a fresh PostgreSQL database and a fresh
// RabbitMQ virtual host per run (so nothing collides with other tests or other
// runs), the distributed mode started on free ports against them, the
// service logs kept for diagnosis, an administrator, and small books.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connect } from 'amqplib';
import { Client } from 'pg';
import { startCluster, startDistributed, type RunningDistributed } from '@persona/launcher';
import { TEST_AMQP_URL, TEST_DATABASE_URL, TEST_REDIS_URL, uniqueName } from '@persona/test-kit';

const ADMIN = { email: 'faults@persona-books.in', password: 'faults are found here' };

/** rabbitmqctl, with a timeout (each call boots a small Erlang VM: about a second). */
export function rabbitmqctl(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('rabbitmqctl', ['-q', ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`rabbitmqctl ${args.join(' ')} failed: ${stderr || err.message}`));
      else resolve(stdout);
    });
  });
}

/**
 * `describe` when `rabbitmqctl` can manage the local broker (it needs to
 * create a virtual host and restart the broker), else `describe.skip` with a
 * message; on CI (`CI=true`) its absence is a failure, as for the servers.
 */
export function describeWithRabbitmqctl(): jest.Describe {
  const probe = spawnSync('rabbitmqctl', ['-q', 'list_vhosts'], { timeout: 30_000, encoding: 'utf8' });
  if (probe.status === 0) return describe;
  const message = `rabbitmqctl cannot manage the local RabbitMQ (${(probe.error?.message ?? probe.stderr ?? '').trim().split('\n')[0] || `exit ${probe.status}`}): skipping the fault suite, which restarts the broker (run it as a user allowed to use rabbitmqctl, e.g. root).`;
  if (process.env.CI) throw new Error(`${message} On CI this is a failure.`);
  console.warn(message);
  return describe.skip;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface FaultShop {
  shop: RunningDistributed;
  url: string;
  /** The run's own database, read directly (never through a proxy). */
  db: Client;
  dataDir: string;
  mailDir: string;
  personasDir: string;
  amqpUrl: string;
  admin: string;
  /** The last lines the services wrote, for failure messages. */
  recentLogs(n?: number): string;
  /** Resolves at the next log line of `service` that matches. */
  nextLog(service: string, test: (line: string) => boolean, timeoutMs: number): Promise<boolean>;
  /** How many log lines `service` wrote with this `msg` since the start (all its processes). */
  logCount(service: string, msg: string): number;
  /** nginx's access log on the cluster (each line: client, request, status, `server=<port> upstream=<replica>`); none otherwise. */
  accessLog(): Promise<string[]>;
  /** Which process wrote a line with this `msg`, and when, in order (`orders-1`, `orders-2`… on the cluster). */
  logged(msg: string): Array<{ process: string; at: number }>;
  close(): Promise<void>;
}

export interface FaultShopOptions {
  label: string;
  /** Where the services reach PostgreSQL; defaults to the fresh database itself. Given the fresh database's URL. */
  serviceDatabaseUrl?: (databaseUrl: string) => Promise<string> | string;
  serviceEnv?: Record<string, Record<string, string>>;
  /** The cluster (two processes of every service, two gateways behind nginx, Redis, an S3 server) instead of one of each. */
  cluster?: boolean;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

function withVhost(url: string, vhost: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(vhost)}`;
  return u.toString();
}

export async function startFaultShop(options: FaultShopOptions): Promise<FaultShop> {
  const name = uniqueName(`persona_faults_${options.label}`);
  const user = new URL(TEST_AMQP_URL).username || 'guest';
  const cleanups: Array<() => Promise<unknown>> = [];
  const cleanUp = async () => {
    for (const step of cleanups.reverse()) await step().catch((err) => console.warn(`fault suite clean-up: ${(err as Error).message}`));
  };

  try {
    const root = new Client({ connectionString: TEST_DATABASE_URL });
    await root.connect();
    await root.query(`CREATE DATABASE ${name}`);
    await root.end();
    cleanups.push(async () => {
      const again = new Client({ connectionString: TEST_DATABASE_URL });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    });
    const databaseUrl = withDatabase(TEST_DATABASE_URL, name);

    await rabbitmqctl('add_vhost', name);
    cleanups.push(() => rabbitmqctl('delete_vhost', name));
    await rabbitmqctl('set_permissions', '-p', name, user, '.*', '.*', '.*');
    const amqpUrl = withVhost(TEST_AMQP_URL, name);

    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    db.on('error', () => undefined);
    cleanups.push(() => db.end());

    const dataDir = await mkdtemp(path.join(os.tmpdir(), `persona-faults-${options.label}-`));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));

    const logs: string[] = [];
    const messages = new Map<string, number>();
    const waiters: Array<{ service: string; test: (line: string) => boolean; resolve: (hit: boolean) => void }> = [];
    const lines = new Map<string, Array<{ process: string; at: number }>>();
    const serviceEnv = options.serviceEnv ?? {};
    const start = options.cluster ? (o: Parameters<typeof startDistributed>[0]) => startCluster({ ...o, redisUrl: TEST_REDIS_URL }) : startDistributed;
    const shop = await start({
      databaseUrl: options.serviceDatabaseUrl ? await options.serviceDatabaseUrl(databaseUrl) : databaseUrl,
      amqpUrl,
      dataDir,
      port: 0, // the gateway and every service on a free port
      logLevel: 'warn',
      readyTimeoutMs: 60_000,
      serviceEnv: {
        ...serviceEnv,
        // The buyers are all one client address; the gateway's per-client limit is not under test here.
        gateway: { RATE_LIMIT_MAX: '0', ...serviceEnv.gateway },
        admin: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...serviceEnv.admin },
        catalogue: { SEED_DEMO: 'false', ...serviceEnv.catalogue },
      },
      output: (service, line) => {
        logs.push(`[${service}] ${line}`);
        if (process.env.FAULTS_VERBOSE) process.stderr.write(`[${service}] ${line}\n`);
        if (logs.length > 400) logs.splice(0, logs.length - 300);
        const msg = /"msg":"((?:[^"\\]|\\.)*)"/.exec(line)?.[1];
        if (msg !== undefined) {
          messages.set(`${service}:${msg}`, (messages.get(`${service}:${msg}`) ?? 0) + 1);
          if (!lines.has(msg)) lines.set(msg, []);
          lines.get(msg)!.push({ process: service, at: Date.now() });
        }
        for (const w of [...waiters]) {
          if (w.service === service && w.test(line)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(true);
          }
        }
      },
    });
    cleanups.push(() => shop.close());

    const login = await fetch(`${shop.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    if (!login.ok) throw new Error(`admin login answered ${login.status}`);
    const admin = `Bearer ${((await login.json()) as { data: { token: string } }).data.token}`;

    return {
      shop,
      url: shop.url,
      db,
      dataDir,
      mailDir: path.join(dataDir, 'mail'),
      personasDir: path.join(dataDir, 'personas'),
      amqpUrl,
      admin,
      recentLogs: (n = 60) => logs.slice(-n).join('\n'),
      nextLog: (service, test, timeoutMs) =>
        new Promise<boolean>((resolve) => {
          const waiter = { service, test, resolve };
          waiters.push(waiter);
          setTimeout(() => {
            const i = waiters.indexOf(waiter);
            if (i >= 0) {
              waiters.splice(i, 1);
              resolve(false);
            }
          }, timeoutMs).unref();
        }),
      logCount: (service, msg) => messages.get(`${service}:${msg}`) ?? 0,
      logged: (msg) => [...(lines.get(msg) ?? [])],
      accessLog: async () =>
        shop.nginxPrefix ? (await readFile(path.join(shop.nginxPrefix, 'logs', 'access.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean) : [],
      close: cleanUp,
    };
  } catch (err) {
    await cleanUp();
    throw err;
  }
}

/** A short book (a handful of paragraphs), so each Persona takes about 100 ms to make. */
export async function addSmallBook(shop: FaultShop, title: string): Promise<string> {
  const category = await fetch(`${shop.url}/api/categories`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: shop.admin },
    body: JSON.stringify({ name: `Faults ${title}` }),
  });
  if (category.status !== 201) throw new Error(`creating a category answered ${category.status}: ${await category.text()}`);
  const categoryId = ((await category.json()) as { data: { _id: string } }).data._id;
  const form = new FormData();
  form.append('title', title);
  form.append('author', 'Fault Finder');
  form.append('description', 'A short book the fault suite buys again and again.');
  form.append('category', categoryId);
  form.append('price', '149');
  form.append(
    'content',
    JSON.stringify([
      '# One',
      'The lamp on the headland turned its patient beam across the water.',
      'The keeper wrote the night down, line by line.',
      '# Two',
      'Morning came grey and kind.',
    ]),
  );
  const res = await fetch(`${shop.url}/api/books`, { method: 'POST', body: form, headers: { authorization: shop.admin } });
  if (res.status !== 201) throw new Error(`creating a book answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { _id: string } }).data._id;
}

export interface Answer {
  status: number;
  body: { data?: Record<string, string>; message?: string; statusCode?: number; code?: string } | null;
  /** Set when no HTTP answer came (connection refused or reset, timeout). */
  error?: string;
  ms: number;
}

/** One JSON POST with a deadline; never throws. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<Answer> {
  const started = Date.now();
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: Answer['body'] = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    return { status: res.status, body: parsed, ms: Date.now() - started };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return {
      status: 0,
      body: null,
      error: e.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : (e.cause?.code ?? e.message),
      ms: Date.now() - started,
    };
  }
}

export const checkoutBody = (bookId: string, n: number) => ({
  book: bookId,
  fullName: `Buyer ${n}`,
  email: `buyer${n}@example.com`,
  phone: '+91 98765 43210',
  deliveryType: 'digital',
  address: null,
});

/** How many messages wait in the run's queues named. */
export async function queueDepth(shop: FaultShop, queues: readonly string[]): Promise<number> {
  const amqp = await connect(shop.amqpUrl);
  try {
    const channel = await amqp.createChannel();
    let depth = 0;
    for (const q of queues) depth += (await channel.checkQueue(q)).messageCount;
    return depth;
  } finally {
    await amqp.close();
  }
}

/**
 * Until nothing of the order → Persona path is in flight (or `deadline`): both outboxes published
 * (a relay killed mid-batch leaves its rows leased for 60 s, then publishes them again: those
 * duplicates must arrive and be absorbed before anything is counted) and both consumer queues empty.
 */
export async function untilPersonaPathQuiet(shop: FaultShop, deadline: number): Promise<void> {
  for (;;) {
    const { rows } = await shop.db.query(`
      SELECT (SELECT count(*) FROM orders.outbox WHERE published_at IS NULL)
           + (SELECT count(*) FROM personalization.outbox WHERE published_at IS NULL) AS n`);
    if ((Number(rows[0].n) === 0 && (await queueDepth(shop, ['personalization.orders', 'orders.personas'])) === 0) || Date.now() > deadline) return;
    await sleep(1000);
  }
}

/** The shared broker, stopped by a scenario: `stopped` while it is, so an afterAll never leaves it so. */
export const broker = { stopped: false };

/** RabbitMQ's app stopped for `downMs` and started again; answers the fault's description. */
export async function restartBroker(downMs: number): Promise<string> {
  const stopping = Date.now();
  broker.stopped = true;
  await rabbitmqctl('stop_app');
  await sleep(downMs);
  await rabbitmqctl('start_app');
  broker.stopped = false;
  return `RabbitMQ stop_app … start_app (${((Date.now() - stopping) / 1000).toFixed(1)} s)`;
}

/** For an afterAll: the broker started again if a scenario left it stopped. */
export async function startBrokerIfStopped(): Promise<void> {
  if (broker.stopped) await rabbitmqctl('start_app').catch((err) => console.warn((err as Error).message));
}
