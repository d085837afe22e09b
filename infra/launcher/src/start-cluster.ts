// The cluster on one machine (issue 25): two processes of every service and two gateways behind
// nginx, on PostgreSQL, RabbitMQ, Redis and an S3 server, everything a replica shares kept in
// them. It is the distributed launcher with replicas (`startDistributed`), the schemas migrated
// once first (the release step) and the shared settings: REDIS_URL for the rate limits and the
// admin session answers, FILE_STORE=s3 for every file. Without S3_ENDPOINT it runs s3rver (from
// npm) over a folder under the data folder, with the bucket.
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { freePort } from './free-port';
import { startDistributed, type DistributedOptions, type RunningDistributed, type ServiceName } from './start-distributed';

export const CLUSTER_DEFAULTS = {
  databaseUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
  amqpUrl: 'amqp://guest:guest@127.0.0.1:5672',
  redisUrl: 'redis://127.0.0.1:6379',
  /** s3rver's own port, when the cluster runs it on fixed ports. */
  s3Port: 4568,
  bucket: 'persona',
} as const;

export interface ClusterOptions extends Omit<DistributedOptions, 'replicas' | 'migrations'> {
  redisUrl: string;
  /** Processes per service and gateways (default 2 of each). */
  replicas?: Partial<Record<ServiceName, number>>;
  /** The S3 store (S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID…); without S3_ENDPOINT, s3rver under dataDir/s3. */
  s3Env?: NodeJS.ProcessEnv;
}

export interface RunningCluster extends RunningDistributed {
  /** The S3 store every replica keeps its files in. */
  s3: { endpoint: string; bucket: string; local: boolean };
}

interface S3rverInstance {
  run(): Promise<unknown>;
  close(): Promise<void>;
}

/** The servers a cluster cannot run without that do not answer, named with their address (empty: all answer). */
export async function missingServers(servers: Record<string, string>): Promise<string[]> {
  const defaultPorts: Record<string, number> = {
    'postgres:': 5432,
    'postgresql:': 5432,
    'amqp:': 5672,
    'amqps:': 5671,
    'redis:': 6379,
    'rediss:': 6379,
    'http:': 80,
    'https:': 443,
  };
  const answers = await Promise.all(
    Object.entries(servers).map(async ([name, url]) => {
      const u = new URL(url);
      const port = Number(u.port || defaultPorts[u.protocol] || 0);
      const ok = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1');
        socket.setTimeout(2000);
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('timeout', () => {
          socket.destroy();
          resolve(false);
        });
        socket.once('error', () => resolve(false));
      });
      return ok ? [] : [`${name} does not answer at ${u.protocol}//${u.host}`];
    }),
  );
  return answers.flat();
}

export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const s3Env = options.s3Env ?? process.env;
  const missing = await missingServers({ PostgreSQL: options.databaseUrl, RabbitMQ: options.amqpUrl, Redis: options.redisUrl });
  if (s3Env.S3_ENDPOINT) missing.push(...(await missingServers({ 'The S3 server (S3_ENDPOINT)': s3Env.S3_ENDPOINT })));
  if (missing.length > 0) throw new Error(`${missing.join('; ')}. The cluster needs PostgreSQL, RabbitMQ and Redis running.`);

  const dataDir = path.resolve(options.dataDir);
  const bucket = s3Env.S3_BUCKET || CLUSTER_DEFAULTS.bucket;
  let s3rver: S3rverInstance | undefined;
  let endpoint = s3Env.S3_ENDPOINT;
  if (!endpoint) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const S3rver = require('s3rver') as new (options: object) => S3rverInstance;
    const directory = path.join(dataDir, 's3');
    await mkdir(directory, { recursive: true });
    const port = options.port === 0 ? await freePort() : CLUSTER_DEFAULTS.s3Port;
    s3rver = new S3rver({ port, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket }] });
    try {
      await s3rver.run();
    } catch (err) {
      throw new Error(`the S3 server (s3rver) could not start on 127.0.0.1:${port}: ${(err as Error).message}`, { cause: err });
    }
    endpoint = `http://127.0.0.1:${port}`;
  }
  const env: Record<string, string> = {
    REDIS_URL: options.redisUrl,
    FILE_STORE: 's3',
    S3_ENDPOINT: endpoint,
    S3_BUCKET: bucket,
    // s3rver takes these fixed credentials; another store's come from the environment.
    S3_ACCESS_KEY_ID: s3rver ? 'S3RVER' : s3Env.S3_ACCESS_KEY_ID || '',
    S3_SECRET_ACCESS_KEY: s3rver ? 'S3RVER' : s3Env.S3_SECRET_ACCESS_KEY || '',
    ...options.env,
  };
  for (const key of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']) if (!env[key]) delete env[key];

  try {
    const shop = await startDistributed({
      ...options,
      dataDir,
      replicas: { catalogue: 2, admin: 2, orders: 2, personalization: 2, gateway: 2, ...options.replicas },
      migrations: 'release',
      env,
    });
    return {
      ...shop,
      s3: { endpoint, bucket, local: Boolean(s3rver) },
      async close() {
        await shop.close();
        await s3rver?.close();
      },
    };
  } catch (err) {
    await s3rver?.close();
    throw err;
  }
}
