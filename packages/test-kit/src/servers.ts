// Whether the real PostgreSQL, RabbitMQ and Redis answer. Tests that need them
// run when they do, skip with a clear message when they do not, and fail on CI
// (CI has them all, so a missing server there is a broken machine, not a skip).
import net from 'node:net';
import { spawnSync } from 'node:child_process';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const cache = new Map<string, boolean>();

/** A synchronous TCP probe, so `describe` blocks can be chosen at collection time. */
export function tcpAnswers(url: string, defaultPort: number): boolean {
  const u = new URL(url);
  const host = u.hostname || '127.0.0.1';
  const port = Number(u.port || defaultPort);
  const key = `${host}:${port}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const script = `const s=require('net').connect(${port},${JSON.stringify(host)});s.setTimeout(1500);s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1));s.on('timeout',()=>process.exit(1));`;
  const ok = spawnSync(process.execPath, ['-e', script], { timeout: 3000 }).status === 0;
  cache.set(key, ok);
  return ok;
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
