// Environment configuration, parsed and validated once at start. A bad or
// missing value stops the service with a message naming the variable.
import { readFileSync } from 'node:fs';
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { LoadSheddingOptions } from './load-shedding';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads `schema`'s keys from `env`, converts strings to the declared types,
 * applies defaults. `NAME_FILE` may point at a file holding NAME's value (the
 * Docker secrets convention), for secrets that should not sit in the environment.
 */
export function loadConfig<T extends TObject>(schema: T, env: NodeJS.ProcessEnv = process.env): Static<T> {
  const raw: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const key of Object.keys(schema.properties)) {
    let value = env[key];
    const file = env[`${key}_FILE`];
    if ((value === undefined || value === '') && file) {
      try {
        value = readFileSync(file, 'utf8').trim();
      } catch (err) {
        problems.push(`${key}_FILE=${JSON.stringify(file)}: cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      }
    }
    if (value !== undefined && value !== '') raw[key] = value;
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const converted = Value.Default(schema, Value.Convert(schema, raw));
  problems.push(
    ...[...Value.Errors(schema, converted)].map((e) => {
      const name = e.path.replace(/^\//, '') || '(root)';
      const got = (converted as Record<string, unknown>)[name];
      return got === undefined ? `${name} is required (${e.message})` : `${name}=${JSON.stringify(env[name])}: ${e.message}`;
    }),
  );
  if (problems.length > 0) throw new ConfigError([...new Set(problems)]);
  return converted as Static<T>;
}

/** Settings every service shares. */
export const CommonConfig = {
  HOST: Type.String({ default: '0.0.0.0' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  /** Shared HS256 secret admin tokens are verified with (≥ 32 characters). */
  JWT_SECRET: Type.String({ minLength: 32 }),
  DATABASE_URL: Type.String({ pattern: '^postgres(ql)?://' }),
  /** A streaming read replica of DATABASE_URL's server: catalogue reads and admin lists go there once it has replayed what they must see. */
  DATABASE_READ_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  /** `transaction` when DATABASE_URL (and DATABASE_READ_URL) name a transaction-mode pooler (PgBouncer): no query then rests on a session setting. */
  DATABASE_POOLER: Type.Union([Type.Literal('none'), Type.Literal('transaction')], { default: 'none' }),
  AMQP_URL: Type.String({ pattern: '^amqps?://' }),
  /** When set, `GET /metrics` demands `Authorization: Bearer <token>`; unset, scrape it on the private network only. */
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  /** Days published outbox rows and inbox rows are kept before they are pruned (longer than any redelivery, a replayed dead letter included). */
  EVENTS_RETENTION_DAYS: Type.Number({ minimum: 1, maximum: 3650, default: 14 }),
  /** The admin service, asked whether an admin token's session is still active (with INTERNAL_TOKEN). */
  ADMIN_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  /**
   * Load shedding: while a measure, sampled every second, is over its limit, requests are answered 503
   * with Retry-After. 0 turns a measure off. The mean event-loop delay over the second, milliseconds.
   */
  SHED_EVENT_LOOP_DELAY_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 1000 }),
  /**
   * The share of the second the event loop was busy (below 1; 0 = off, the default: a burst the shop
   * still serves quickly keeps it near 1 for a second; at 0.98 the embedded shop shed 350 of 400
   * requests sent 50 at a time, while their event loop delay stayed at 17 ms).
   */
  SHED_EVENT_LOOP_UTILIZATION: Type.Number({ minimum: 0, exclusiveMaximum: 1, default: 0 }),
  /** V8's heap in use as a share of its limit (below 1; 0 = off). */
  SHED_HEAP_USED_RATIO: Type.Number({ minimum: 0, exclusiveMaximum: 1, default: 0.9 }),
  /** The process's resident memory, worker threads included, MB (0 = off: set it below the container's memory limit). */
  SHED_RSS_MB: Type.Integer({ minimum: 0, maximum: 1_048_576, default: 0 }),
  /** What a shed request is told to wait (Retry-After), seconds. */
  SHED_RETRY_AFTER_S: Type.Integer({ minimum: 1, maximum: 3600, default: 5 }),
  /**
   * `apply`: a service migrates its schema at start (one process, or replicas started together: the
   * migrator's advisory lock lets one at a time). `check`: `npm run migrate` is the release step, and
   * a service refuses to start on a schema older than it needs.
   */
  MIGRATIONS: Type.Union([Type.Literal('apply'), Type.Literal('check')], { default: 'apply' }),
  /** redis://host:6379: the rate limits count there, shared by every replica and gateway; unset, each process counts its own. */
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
} satisfies TProperties;

/**
 * Where a service keeps its files (issue 25): `local`, its folder on this machine's disk (one
 * process); `s3`, an S3-compatible store every replica reads (S3_BUCKET required; S3_ENDPOINT for
 * MinIO and the like, which also puts the bucket in the path).
 */
export const FileStoreSettings = {
  FILE_STORE: Type.Union([Type.Literal('local'), Type.Literal('s3')], { default: 'local' }),
  S3_BUCKET: Type.Optional(Type.String({ minLength: 3, maxLength: 63, pattern: '^[a-z0-9][a-z0-9.-]+[a-z0-9]$' })),
  S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  S3_REGION: Type.String({ minLength: 1, default: 'us-east-1' }),
  S3_ACCESS_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  S3_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** Keys begin so ("persona/"), when the bucket is shared with others. */
  S3_PREFIX: Type.String({ default: '', pattern: '^([a-z0-9][a-z0-9-]*/)?$' }),
} satisfies TProperties;

/** The S3 store FILE_STORE=s3 names, or undefined for the local disk; a missing bucket is named. */
export function s3Settings(settings: Static<TObject<typeof FileStoreSettings>>) {
  if (settings.FILE_STORE !== 's3') return undefined;
  if (!settings.S3_BUCKET) throw new Error('FILE_STORE=s3 needs S3_BUCKET: the bucket the files are kept in');
  return {
    bucket: settings.S3_BUCKET,
    endpoint: settings.S3_ENDPOINT,
    region: settings.S3_REGION,
    accessKeyId: settings.S3_ACCESS_KEY_ID,
    secretAccessKey: settings.S3_SECRET_ACCESS_KEY,
    prefix: settings.S3_PREFIX,
  };
}

/** The SHED_* settings, which every service and the gateway read (spread them into its settings). */
export const LoadSheddingSettings = {
  SHED_EVENT_LOOP_DELAY_MS: CommonConfig.SHED_EVENT_LOOP_DELAY_MS,
  SHED_EVENT_LOOP_UTILIZATION: CommonConfig.SHED_EVENT_LOOP_UTILIZATION,
  SHED_HEAP_USED_RATIO: CommonConfig.SHED_HEAP_USED_RATIO,
  SHED_RSS_MB: CommonConfig.SHED_RSS_MB,
  SHED_RETRY_AFTER_S: CommonConfig.SHED_RETRY_AFTER_S,
} satisfies TProperties;

/** The SHED_* settings as createServiceApp takes them. */
export function loadSheddingOptions(settings: Static<TObject<typeof LoadSheddingSettings>>): LoadSheddingOptions {
  return {
    maxEventLoopDelayMs: settings.SHED_EVENT_LOOP_DELAY_MS,
    maxEventLoopUtilization: settings.SHED_EVENT_LOOP_UTILIZATION,
    maxHeapUsedRatio: settings.SHED_HEAP_USED_RATIO,
    maxRssBytes: settings.SHED_RSS_MB * 1024 * 1024,
    retryAfterS: settings.SHED_RETRY_AFTER_S,
  };
}

/** EVENTS_RETENTION_DAYS as the outbox relay takes it. */
export const retentionMs = (days: number) => Math.round(days * 86_400_000);

export const Port = (fallback: number) => Type.Integer({ minimum: 0, maximum: 65535, default: fallback });

/**
 * What a service's own process adds to the service's settings (distributed
 * mode): where it listens, how much it logs, the PostgreSQL and RabbitMQ it
 * runs on. The embedded shop gives every service its database, bus, logger and
 * a loopback port itself, so it reads only the settings.
 */
export const processConfig = (port: number) =>
  ({
    PORT: Port(port),
    HOST: CommonConfig.HOST,
    LOG_LEVEL: CommonConfig.LOG_LEVEL,
    DATABASE_URL: CommonConfig.DATABASE_URL,
    DATABASE_READ_URL: CommonConfig.DATABASE_READ_URL,
    DATABASE_POOLER: CommonConfig.DATABASE_POOLER,
    AMQP_URL: CommonConfig.AMQP_URL,
  }) satisfies TProperties;

/** A service's settings plus its process's (`processConfig`), as one schema for its own process. */
export const withProcessConfig = <T extends TObject>(settings: T, port: number) =>
  Type.Object({ ...processConfig(port), ...(settings.properties as T['properties']) });

/** The settings every service of the shop reads besides its own (spread them into its settings): the metrics token, how long events are kept, whether it migrates its schema, when load is shed. */
export const ServiceSettings = {
  METRICS_TOKEN: CommonConfig.METRICS_TOKEN,
  EVENTS_RETENTION_DAYS: CommonConfig.EVENTS_RETENTION_DAYS,
  MIGRATIONS: CommonConfig.MIGRATIONS,
  REDIS_URL: CommonConfig.REDIS_URL,
  ...LoadSheddingSettings,
} satisfies TProperties;

/**
 * A service's configuration, declared once in its config.ts: its settings (what it needs in either
 * run mode), the schema of its own process (the settings and `processConfig(port)`) and a loader of each.
 */
export function serviceConfig<T extends TObject>(settings: T, port: number) {
  const processSchema = withProcessConfig(settings, port);
  return {
    settings,
    process: processSchema,
    loadSettings: (env: NodeJS.ProcessEnv = process.env) => loadConfig(settings, env),
    // (TypeBox cannot check the generic intersection here; with T known the type is exact.)
    loadProcess: (env: NodeJS.ProcessEnv = process.env) => loadConfig(processSchema as TObject, env) as Static<typeof processSchema>,
  };
}

/** The options every service takes from the settings they share (`ServiceSettings`). */
export function sharedServiceOptions(settings: Static<TObject<typeof ServiceSettings>>) {
  return {
    metricsToken: settings.METRICS_TOKEN,
    eventRetentionMs: retentionMs(settings.EVENTS_RETENTION_DAYS),
    migrationMode: settings.MIGRATIONS,
    redisUrl: settings.REDIS_URL,
    loadShedding: loadSheddingOptions(settings),
  };
}
