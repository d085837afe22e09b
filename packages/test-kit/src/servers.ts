// Whether the real PostgreSQL, RabbitMQ and Redis answer. Tests that need them
// run when they do, skip with a clear message when they do not, and fail on CI
// (CI has them all, so a missing server there is a broken machine, not a skip).
import net from 'node:net';
import { spawnSync } from 'node:child_process';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const cache = new Map<string, boolean>();
/** Where the jest preset's globalSetup leaves what it probed, for every test file of the run. */
export const PROBED_SERVERS_ENV = 'PERSONA_PROBED_SERVERS';

function hostPort(url: string, defaultPort: number): { host: string; port: number; key: string } {
  const u = new URL(url);
  const host = u.hostname || '127.0.0.1';
  const port = Number(u.port || defaultPort);
  return { host, port, key: `${host}:${port}` };
}

function probed(): Record<string, boolean> {
  try {
    return JSON.parse(process.env[PROBED_SERVERS_ENV] ?? '{}') as Record<string, boolean>;
  } catch {
    return {};
  }
}

/** A synchronous TCP probe, so `describe` blocks can be chosen at collection time. The answer comes
 * from the run's globalSetup (`probeServers`) when it probed that server; else a child process
 * connects, with time enough for a machine busy running tests (a refused port answers at once). */
export function tcpAnswers(url: string, defaultPort: number): boolean {
  const { host, port, key } = hostPort(url, defaultPort);
  const known = cache.get(key) ?? probed()[key];
  if (known !== undefined) return known;
  const script = `const s=require('net').connect(${port},${JSON.stringify(host)});s.setTimeout(10000);s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1));s.on('timeout',()=>process.exit(1));`;
  const ok = spawnSync(process.execPath, ['-e', script], { timeout: 30_000 }).status === 0;
  cache.set(key, ok);
  return ok;
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(10_000);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/** Probes PostgreSQL, RabbitMQ and Redis once for a whole jest run (the preset's globalSetup) and
 * leaves the answers in the environment its test files inherit, so that no file spawns a probe of
 * its own (on a loaded machine a spawned probe can be too slow to tell a live server from none). */
export async function probeServers(): Promise<void> {
  const servers = [hostPort(TEST_DATABASE_URL, 5432), hostPort(TEST_AMQP_URL, 5672), hostPort(TEST_REDIS_URL, 6379)];
  const answers = await Promise.all(servers.map((s) => connects(s.host, s.port)));
  process.env[PROBED_SERVERS_ENV] = JSON.stringify(Object.fromEntries(servers.map((s, i) => [s.key, answers[i]])));
}

const URL_VARIABLE: Record<string, string> = { PostgreSQL: 'TEST_DATABASE_URL', RabbitMQ: 'TEST_AMQP_URL', Redis: 'TEST_REDIS_URL' };

function gate(name: string, url: string, port: number): jest.Describe {
  if (tcpAnswers(url, port)) return describe;
  const message = `${name} does not answer at ${url}: skipping the tests that need it (set ${URL_VARIABLE[name]} to point at one).`;
  if (process.env.CI) {
    // On CI the servers are part of the machine; never let their absence pass silently.
    throw new Error(`${message} On CI this is a failure.`);
  }
  console.warn(message);
  return describe.skip;
}

/** `describe` when PostgreSQL answers, else `describe.skip` with a message. */
export function describeWithPostgres(): jest.Describe {
  return gate('PostgreSQL', TEST_DATABASE_URL, 5432);
}

export type TestDatabaseKind = 'pglite' | 'postgres';

/**
 * A suite that tests what a service does (its routes, through `inject`), not what a database does,
 * runs once, on one database: the real PostgreSQL when it answers (it opens in a fraction of
 * PGlite's time and runs the queries in a process of its own), else PGlite, with a message. Each
 * repository's contract suite runs on both (`describe` on PGlite, `describeWithPostgres()`), and
 * the end-to-end journeys run the embedded shop on PGlite, so both databases stay covered.
 * On CI a missing PostgreSQL is a failure, as for `describeWithPostgres()`.
 */
export function describeOnOneDatabase(name: string, suite: (kind: TestDatabaseKind) => void): void {
  if (tcpAnswers(TEST_DATABASE_URL, 5432)) {
    describe(`${name} (on PostgreSQL)`, () => suite('postgres'));
    return;
  }
  const message = `PostgreSQL does not answer at ${TEST_DATABASE_URL}: ${name} runs on PGlite instead (set TEST_DATABASE_URL to point at one).`;
  if (process.env.CI) throw new Error(`${message} On CI this is a failure.`);
  console.warn(message);
  describe(`${name} (on PGlite)`, () => suite('pglite'));
}

/** `describe` when RabbitMQ answers, else `describe.skip` with a message. */
export function describeWithRabbit(): jest.Describe {
  return gate('RabbitMQ', TEST_AMQP_URL, 5672);
}

/** `describe` when Redis answers, else `describe.skip` with a message. */
export function describeWithRedis(): jest.Describe {
  return gate('Redis', TEST_REDIS_URL, 6379);
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

/** A free loopback port (for services a test starts as separate processes). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
