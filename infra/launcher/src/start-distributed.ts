// The distributed mode on one machine: each service as its own Node process
// against a real PostgreSQL and RabbitMQ, the gateway in front. (docker
// compose runs the same processes in containers.)
import { spawn, type ChildProcess } from 'node:child_process';
import { allocatorEnv } from './allocator';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { adminConfig } from '@persona/admin';
import { catalogueConfig } from '@persona/catalogue';
import { GatewaySettingsSchema } from '@persona/gateway';
import { ordersConfig } from '@persona/orders';
import { personalizationConfig } from '@persona/personalization';
import type { TObject } from '@sinclair/typebox';
import { freePort } from './free-port';
import { loadOrCreateSecrets } from './secrets';
import { adminAppDist, storefrontDist } from './storefront-dir';

export interface DistributedOptions {
  databaseUrl: string;
  amqpUrl: string;
  dataDir: string;
  /** The gateway's port (8080). 0: it and every service not given a port listen on free loopback ports (tests, benchmarks). */
  port?: number;
  cataloguePort?: number;
  ordersPort?: number;
  personalizationPort?: number;
  adminPort?: number;
  logLevel?: string;
  /** Where the children's output goes; defaults to this process's, prefixed with the service name. */
  output?: (service: string, line: string) => void;
  readyTimeoutMs?: number;
  /** Extra environment per service, e.g. { personalization: { PERSONA_MAX_ATTEMPTS: '2' } }. */
  serviceEnv?: Record<string, Record<string, string>>;
}

export interface RunningDistributed {
  url: string;
  processes: Record<string, ChildProcess>;
  /** Starts a service again (after it died or was killed) and waits until it is ready. */
  restart(name: string): Promise<void>;
  close(): Promise<void>;
}

interface ServiceSpec {
  name: string;
  entry: string;
  /** V8 flags the service runs with (as its package's start script has them). */
  nodeArgs?: string[];
  port: number;
  env: Record<string, string>;
}

function entryOf(pkg: string, file: string): string {
  return path.join(path.dirname(require.resolve(pkg)), file);
}

function pipeLines(child: ChildProcess, name: string, output: (service: string, line: string) => void) {
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) output(name, line);
    });
  }
}

async function waitReady(url: string, child: ChildProcess, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} while starting`);
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} was not ready within ${timeoutMs} ms`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 8000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startDistributed(options: DistributedOptions): Promise<RunningDistributed> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const { jwtSecret, internalToken } = await loadOrCreateSecrets(dataDir);
  const output = options.output ?? ((service, line) => process.stdout.write(`[${service}] ${line}\n`));
  const free = options.port === 0;
  const portOf = async (given: number | undefined, fallback: number) => given ?? (free ? await freePort() : fallback);
  const port = await portOf(free ? undefined : options.port, 8080);
  const cataloguePort = await portOf(options.cataloguePort, 3001);
  const ordersPort = await portOf(options.ordersPort, 3002);
  const personalizationPort = await portOf(options.personalizationPort, 3003);
  const adminPort = await portOf(options.adminPort, 3004);
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  // Every verifier asks the admin service whether a token's session is active.
  const sessions = { ADMIN_URL: adminUrl, INTERNAL_TOKEN: internalToken };
  const publicUrl = process.env.PUBLIC_URL || `http://localhost:${port}`;
  const common = { JWT_SECRET: jwtSecret, LOG_LEVEL: options.logLevel ?? 'info', HOST: '127.0.0.1' };
  const backing = { DATABASE_URL: options.databaseUrl, AMQP_URL: options.amqpUrl };
  const catalogueUrl = `http://127.0.0.1:${cataloguePort}`;
  // Each service's settings (its config schema's keys) pass through from the
  // launcher's environment; the launcher decides the wiring, as the embedded shop does.
  const given = (schema: TObject) => Object.fromEntries(Object.keys(schema.properties).flatMap((k) => (process.env[k] ? [[k, process.env[k]!]] : [])));
  const inData = (key: string, folder: string) => ({ [key]: process.env[key] || path.join(dataDir, folder) });

  const specs: ServiceSpec[] = [
    {
      name: 'catalogue',
      entry: entryOf('@persona/catalogue', 'server.js'),
      port: cataloguePort,
      env: { ...given(catalogueConfig.settings), ...common, ...backing, ...sessions, PORT: String(cataloguePort), ...inData('FILES_DIR', 'files') },
    },
    {
      name: 'admin',
      entry: entryOf('@persona/admin', 'server.js'),
      port: adminPort,
      env: { ...given(adminConfig.settings), ...common, ...backing, PORT: String(adminPort), CATALOGUE_URL: catalogueUrl, INTERNAL_TOKEN: internalToken },
    },
    {
      name: 'orders',
      entry: entryOf('@persona/orders', 'server.js'),
      // orders.csv streams a million rows: a heap kept small makes it constant memory in fact
      // (peak RSS +12 MB instead of +70 MB, for 15% more time). As in services/orders/package.json.
      nodeArgs: ['--optimize-for-size'],
      port: ordersPort,
      env: {
        ...given(ordersConfig.settings),
        ...common,
        ...backing,
        ...sessions,
        PORT: String(ordersPort),
        CATALOGUE_URL: catalogueUrl,
        PUBLIC_URL: publicUrl,
        ...inData('MAIL_DIR', 'mail'),
      },
    },
    {
      name: 'personalization',
      entry: entryOf('@persona/personalization', 'server.js'),
      port: personalizationPort,
      env: {
        ...given(personalizationConfig.settings),
        ...common,
        ...backing,
        ...sessions,
        PORT: String(personalizationPort),
        CATALOGUE_URL: catalogueUrl,
        INTERNAL_TOKEN: internalToken,
        PUBLIC_URL: publicUrl,
        ...inData('PERSONAS_DIR', 'personas'),
      },
    },
    {
      name: 'gateway',
      entry: entryOf('@persona/gateway', 'server.js'),
      port,
      env: {
        ...given(GatewaySettingsSchema),
        ...common,
        HOST: '0.0.0.0',
        PORT: String(port),
        CATALOGUE_URL: catalogueUrl,
        ORDERS_URL: `http://127.0.0.1:${ordersPort}`,
        PERSONALIZATION_URL: `http://127.0.0.1:${personalizationPort}`,
        ...sessions,
        STOREFRONT_DIR: process.env.STOREFRONT_DIR || storefrontDist(),
        ADMIN_APP_DIR: process.env.ADMIN_APP_DIR || adminAppDist(),
        PUBLIC_URL: publicUrl,
      },
    },
  ];

  const processes: Record<string, ChildProcess> = {};
  const close = async () => {
    await Promise.all(Object.values(processes).reverse().map(stopChild));
  };
  const start = async (spec: ServiceSpec) => {
    const child = spawn(process.execPath, [...(spec.nodeArgs ?? []), spec.entry], {
      env: { PATH: process.env.PATH ?? '', ...allocatorEnv(), ...spec.env, ...(options.serviceEnv?.[spec.name] ?? {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    processes[spec.name] = child;
    pipeLines(child, spec.name, output);
    await waitReady(`http://127.0.0.1:${spec.port}`, child, spec.name, options.readyTimeoutMs ?? 30_000);
  };
  try {
    for (const spec of specs) await start(spec);
  } catch (err) {
    await close();
    throw err;
  }
  return {
    url: `http://localhost:${port}`,
    processes,
    async restart(name) {
      const spec = specs.find((s) => s.name === name);
      if (!spec) throw new Error(`no service called ${name}`);
      await stopChild(processes[name]);
      await start(spec);
    },
    close,
  };
}
