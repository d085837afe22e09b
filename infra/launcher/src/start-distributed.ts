// The distributed mode on one machine: each service as its own Node process
// against a real PostgreSQL and RabbitMQ, the gateway in front. (docker
// compose runs the same processes in containers.) With `replicas`, several
// processes of a service (and several gateways) behind nginx: the cluster
// (`start-cluster.ts`, issue 25).
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { allocatorEnv } from './allocator';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { adminConfig } from '@persona/admin';
import { catalogueConfig } from '@persona/catalogue';
import { GatewaySettingsSchema } from '@persona/gateway';
import { ordersConfig } from '@persona/orders';
import { personalizationConfig } from '@persona/personalization';
import { STOP_WITH_PARENT_ENV } from '@persona/service-kit';
import type { TObject } from '@sinclair/typebox';
import { freePort } from './free-port';
import { migrateAll } from './migrate';
import { spawnNginx, writeNginxConfig } from './nginx';
import { loadOrCreateSecrets } from './secrets';
import { adminAppDist, storefrontDist } from './storefront-dir';

export type ServiceName = 'catalogue' | 'admin' | 'orders' | 'personalization' | 'gateway';

/** The services in the order they start (each one's neighbours before it), the gateway last. */
export const SERVICE_NAMES: readonly ServiceName[] = ['catalogue', 'admin', 'orders', 'personalization', 'gateway'];

export interface DistributedOptions {
  databaseUrl: string;
  amqpUrl: string;
  dataDir: string;
  /**
   * The public port (8080): the gateway's, or nginx's in front of the gateways when there are replicas.
   * 0: it and every process not given a port listen on free loopback ports (tests, benchmarks).
   */
  port?: number;
  cataloguePort?: number;
  ordersPort?: number;
  personalizationPort?: number;
  adminPort?: number;
  logLevel?: string;
  /** Where the children's output goes; defaults to this process's, prefixed with the service name. */
  output?: (service: string, line: string) => void;
  readyTimeoutMs?: number;
  /** Extra environment per service, e.g. { personalization: { PERSONA_MAX_ATTEMPTS: '2' } }; a replica's name (`orders-2`) gives that one only. */
  serviceEnv?: Record<string, Record<string, string>>;
  /**
   * Processes per service, e.g. { orders: 2, gateway: 2 } (default 1 each). More than one of any:
   * nginx (`nginx.ts`) listens on each service's port (`cataloguePort`…, 3001…) balancing its
   * replicas, which listen on that port + 100 × n (free ports with `port: 0`) and are named
   * `<service>-<n>`; and on `port` balancing the gateways (8081, 8082…), which then listen on
   * loopback only and trust its X-Forwarded-For (TRUST_PROXY).
   */
  replicas?: Partial<Record<ServiceName, number>>;
  /** Settings every process gets over the launcher's own environment (REDIS_URL, FILE_STORE, S3_*). */
  env?: Record<string, string>;
  /**
   * `apply` (default): each service migrates its schema as it starts. `release`: every schema is
   * migrated once first (`migrateAll`, the release step) and the services run with MIGRATIONS=check.
   */
  migrations?: 'apply' | 'release';
}

export interface RunningDistributed {
  url: string;
  /** Every process by name: `orders` (or `orders-1`, `orders-2` with replicas), `gateway…`, `nginx`. */
  processes: Record<string, ChildProcess>;
  /** The names of each service's processes. */
  replicas: Record<ServiceName, string[]>;
  /** Each service process's own address (`http://127.0.0.1:<port>`), past nginx: a test asks one replica. */
  addresses: Record<string, string>;
  /** With replicas: nginx's folder (nginx.conf, logs/access.log naming the replica of every request). */
  nginxPrefix?: string;
  /** Starts a service again (after it died or was killed) and waits until it is ready. */
  restart(name: string): Promise<void>;
  close(): Promise<void>;
}

interface ServiceSpec {
  /** The process's name: the service's, or `<service>-<n>` with replicas. */
  name: string;
  service: ServiceName;
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

async function waitListening(port: number, child: ChildProcess, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} while starting`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} was not listening on ${port} within ${timeoutMs} ms`);
}

export async function startDistributed(options: DistributedOptions): Promise<RunningDistributed> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const { jwtSecret, internalToken } = await loadOrCreateSecrets(dataDir);
  const output = options.output ?? ((service, line) => process.stdout.write(`[${service}] ${line}\n`));
  const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
  const free = options.port === 0;
  // A port is free when asked and bound only when its process starts: one asked again meanwhile could
  // be the same, and two services on one port means one answering for the other. None is given twice.
  const handedOut = new Set<number>();
  const unusedPort = async (): Promise<number> => {
    for (;;) {
      const candidate = await freePort();
      if (!handedOut.has(candidate)) {
        handedOut.add(candidate);
        return candidate;
      }
    }
  };
  const portOf = async (given: number | undefined, fallback: number) => given ?? (free ? await unusedPort() : fallback);
  const port = await portOf(free ? undefined : options.port, 8080);
  const cataloguePort = await portOf(options.cataloguePort, 3001);
  const ordersPort = await portOf(options.ordersPort, 3002);
  const personalizationPort = await portOf(options.personalizationPort, 3003);
  const adminPort = await portOf(options.adminPort, 3004);
  const count = (service: ServiceName) => Math.max(1, Math.floor(options.replicas?.[service] ?? 1));
  // Replicas of anything: nginx takes each service's port (its neighbours' address for it) and the public one.
  const balanced = SERVICE_NAMES.some((s) => count(s) > 1);
  const front: Record<ServiceName, number> = {
    catalogue: cataloguePort,
    admin: adminPort,
    orders: ordersPort,
    personalization: personalizationPort,
    gateway: port,
  };
  const replicaPorts = {} as Record<ServiceName, number[]>;
  for (const service of SERVICE_NAMES) {
    replicaPorts[service] = [];
    for (let n = 1; n <= count(service); n++) {
      const fixed = service === 'gateway' ? port + n : front[service] + 100 * n;
      replicaPorts[service].push(!balanced ? front[service] : free ? await unusedPort() : fixed);
    }
  }
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  // Every verifier asks the admin service whether a token's session is active.
  const sessions = { ADMIN_URL: adminUrl, INTERNAL_TOKEN: internalToken };
  const publicUrl = process.env.PUBLIC_URL || `http://localhost:${port}`;
  const common = { JWT_SECRET: jwtSecret, LOG_LEVEL: options.logLevel ?? 'info', HOST: '127.0.0.1' };
  const backing = {
    DATABASE_URL: options.databaseUrl,
    AMQP_URL: options.amqpUrl,
    // Migrated once below (the release step): each process only checks its schema is current.
    ...(options.migrations === 'release' ? { MIGRATIONS: 'check' } : {}),
  };
  const catalogueUrl = `http://127.0.0.1:${cataloguePort}`;
  // Each service's settings (its config schema's keys) pass through from the
  // launcher's environment; the launcher decides the wiring, as the embedded shop does.
  const given = (schema: TObject) => ({
    ...Object.fromEntries(Object.keys(schema.properties).flatMap((k) => (process.env[k] ? [[k, process.env[k]!]] : []))),
    ...options.env,
  });
  const inData = (key: string, folder: string) => ({ [key]: process.env[key] || path.join(dataDir, folder) });

  // Each service once, without the port its processes listen on.
  const services: Array<Omit<ServiceSpec, 'name' | 'port'>> = [
    {
      service: 'catalogue',
      entry: entryOf('@persona/catalogue', 'server.js'),
      env: { ...given(catalogueConfig.settings), ...common, ...backing, ...sessions, ...inData('FILES_DIR', 'files') },
    },
    {
      service: 'admin',
      entry: entryOf('@persona/admin', 'server.js'),
      env: { ...given(adminConfig.settings), ...common, ...backing, CATALOGUE_URL: catalogueUrl, INTERNAL_TOKEN: internalToken },
    },
    {
      service: 'orders',
      entry: entryOf('@persona/orders', 'server.js'),
      // orders.csv streams a million rows: a heap kept small makes it constant memory in fact
      // (peak RSS +12 MB instead of +70 MB, for 15% more time). As in services/orders/package.json.
      nodeArgs: ['--optimize-for-size'],
      env: {
        ...given(ordersConfig.settings),
        ...common,
        ...backing,
        ...sessions,
        CATALOGUE_URL: catalogueUrl,
        PUBLIC_URL: publicUrl,
        ...inData('MAIL_DIR', 'mail'),
      },
    },
    {
      service: 'personalization',
      entry: entryOf('@persona/personalization', 'server.js'),
      env: {
        ...given(personalizationConfig.settings),
        ...common,
        ...backing,
        ...sessions,
        CATALOGUE_URL: catalogueUrl,
        INTERNAL_TOKEN: internalToken,
        PUBLIC_URL: publicUrl,
        ...inData('PERSONAS_DIR', 'personas'),
      },
    },
    {
      service: 'gateway',
      entry: entryOf('@persona/gateway', 'server.js'),
      env: {
        ...given(GatewaySettingsSchema),
        ...common,
        // Alone, the gateway is the public entry; behind nginx it listens on loopback only and
        // believes the X-Forwarded-For nginx sets (the client's address, for its rate limits).
        ...(balanced ? { HOST: '127.0.0.1', TRUST_PROXY: 'true' } : { HOST: '0.0.0.0' }),
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
  const specs: ServiceSpec[] = services.flatMap((spec) =>
    replicaPorts[spec.service].map((replicaPort, i) => ({
      ...spec,
      name: count(spec.service) > 1 ? `${spec.service}-${i + 1}` : spec.service,
      port: replicaPort,
      env: { ...spec.env, PORT: String(replicaPort) },
    })),
  );
  const replicas = Object.fromEntries(SERVICE_NAMES.map((s) => [s, specs.filter((spec) => spec.service === s).map((spec) => spec.name)])) as Record<
    ServiceName,
    string[]
  >;

  const nginxPrefix = balanced ? path.join(dataDir, 'nginx') : undefined;
  if (nginxPrefix) {
    await writeNginxConfig({
      prefix: nginxPrefix,
      publicPort: port,
      publicHost: '0.0.0.0',
      gateways: replicaPorts.gateway,
      services: SERVICE_NAMES.filter((s) => s !== 'gateway').map((s) => ({ name: s, listen: front[s], servers: replicaPorts[s] })),
    });
  }

  const processes: Record<string, ChildProcess> = {};
  const close = async () => {
    await Promise.all(Object.values(processes).reverse().map(stopChild));
  };
  const start = async (spec: ServiceSpec) => {
    const child = spawn(process.execPath, [...(spec.nodeArgs ?? []), spec.entry], {
      env: {
        PATH: process.env.PATH ?? '',
        ...allocatorEnv(),
        ...spec.env,
        ...(options.serviceEnv?.[spec.service] ?? {}),
        ...(spec.name !== spec.service ? (options.serviceEnv?.[spec.name] ?? {}) : {}),
        // A pipe this process never writes to: it ends when this process does, even SIGKILLed, and the service then stops.
        [STOP_WITH_PARENT_ENV]: 'stdin',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    processes[spec.name] = child;
    pipeLines(child, spec.name, output);
    await waitReady(`http://127.0.0.1:${spec.port}`, child, spec.name, readyTimeoutMs);
  };
  const startNginx = async (prefix: string) => {
    const child = spawnNginx(prefix);
    processes.nginx = child;
    pipeLines(child, 'nginx', output);
    await waitListening(port, child, 'nginx', readyTimeoutMs);
  };
  try {
    if (options.migrations === 'release') await migrateAll(options.databaseUrl);
    if (nginxPrefix) {
      // First, so each replica finds its neighbours at their addresses as it starts; the replicas
      // of one service start together.
      await startNginx(nginxPrefix);
      for (const service of SERVICE_NAMES) await Promise.all(specs.filter((s) => s.service === service).map(start));
      await waitReady(`http://127.0.0.1:${port}`, processes.nginx!, 'nginx', readyTimeoutMs);
    } else {
      for (const spec of specs) await start(spec);
    }
  } catch (err) {
    await close();
    throw err;
  }
  return {
    url: `http://localhost:${port}`,
    processes,
    replicas,
    addresses: Object.fromEntries(specs.map((spec) => [spec.name, `http://127.0.0.1:${spec.port}`])),
    nginxPrefix,
    async restart(name) {
      if (name === 'nginx' && nginxPrefix) {
        await stopChild(processes.nginx!);
        await startNginx(nginxPrefix);
        return;
      }
      const spec = specs.find((s) => s.name === name);
      if (!spec) throw new Error(`no service called ${name}`);
      await stopChild(processes[name]!);
      await start(spec);
    },
    close,
  };
}
