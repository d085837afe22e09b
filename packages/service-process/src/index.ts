// A service as its own process (distributed mode): the one composition the
// catalogue, orders, personalization and admin processes share. Config is read
// first (a bad variable is named and the process exits), then the logger,
// PostgreSQL (the service's own schema) and RabbitMQ; the service starts on
// them and listens. On SIGTERM, after the HTTP server drained: the service
// finishes or hands back its messages and flushes its outbox, then the bus
// closes, then the database pool.
import { createRabbitBus, type EventBus } from '@persona/bus';
import { eventProblem } from '@persona/contracts';
import { openDatabase, type Database } from '@persona/db';
import { createLogger, runServer, startOrExit, type LoadSheddingOptions, type Logger, type ServiceApp, type ShutdownContext } from '@persona/service-kit';

/** The variables every service process reads (each service's config schema has them). */
export interface ProcessConfig {
  LOG_LEVEL: string;
  DATABASE_URL: string;
  /** A read replica of DATABASE_URL's server (optional). */
  DATABASE_READ_URL?: string;
  /** `transaction`: the database URLs name a transaction-mode pooler. */
  DATABASE_POOLER?: 'none' | 'transaction';
  AMQP_URL: string;
  PORT: number;
  HOST: string;
}

export interface RunningService {
  app: ServiceApp;
  close(options?: { graceMs?: number }): Promise<void>;
}

/** What every service's `start<Name>Service` takes besides its own options: its parts, and the settings all services share. */
export interface ServiceBaseOptions<DB> {
  database: Database<DB>;
  bus: EventBus;
  logger: Logger;
  /** Guards /metrics (METRICS_TOKEN). */
  metricsToken?: string;
  /** How long published outbox rows and inbox rows are kept (EVENTS_RETENTION_DAYS). */
  eventRetentionMs?: number;
  /** MIGRATIONS: migrate the schema at start (`apply`, the default) or refuse to start on an old one (`check`). */
  migrationMode?: 'apply' | 'check';
  /** REDIS_URL: where the rate limits count, shared by every replica. */
  redisUrl?: string;
  /** When a saturated service answers 503 with Retry-After (SHED_*); without it, never. */
  loadShedding?: LoadSheddingOptions;
}

/** What a service is started on. Annotate `start`'s parameter with it to name the schema's tables (`ProcessParts<OrdersConfig, OrdersDB>`). */
export interface ProcessParts<C, DB> {
  config: C;
  database: Database<DB>;
  bus: EventBus;
  logger: Logger;
}

/** What every service starts on: a database whose tables are the service's own (`start` names them). */
type Parts = { database: Pick<Database<unknown>, 'schema' | 'close'>; bus: EventBus; logger: Logger };

export interface ServiceProcessSpec<C extends ProcessConfig, P extends Parts, S extends RunningService> {
  /** Logger name, PostgreSQL application_name and RabbitMQ connection name. */
  name: string;
  schema: string;
  loadConfig: () => C;
  /**
   * The service's own options from its configuration (its config.ts's `<name>ServiceOptions`, which
   * the embedded shop uses too), given to `start` with the parts and the configuration: so `start`
   * can be the service's own `start<Name>Service`.
   */
  options?: (config: C) => Omit<P, keyof Parts | 'config'>;
  start: (parts: P) => Promise<S>;
}

/** Where the process gets its logger, database and bus (tests pass their own). */
export interface ProcessFactories {
  createLogger: (name: string, level: string) => Logger;
  openDatabase: <DB>(url: string, name: string, schema: string, readUrl?: string, pooler?: 'none' | 'transaction') => Database<DB>;
  createBus: (url: string, name: string, logger: Logger) => EventBus;
}

export const PROCESS_FACTORIES: ProcessFactories = {
  createLogger: (name, level) => createLogger(name, level),
  openDatabase: (url, name, schema, readUrl, pooler) => openDatabase({ kind: 'postgres', url, applicationName: name, readUrl, pooler }, schema),
  // Every message is checked against the contracts' event schemas, on publish and on consume.
  createBus: (url, name, logger) => createRabbitBus({ url, logger, connectionName: name, check: eventProblem }),
};

export interface StartedProcess<C, S> {
  config: C;
  logger: Logger;
  service: S;
  /** The clean-up runServer calls once the HTTP server has drained. */
  onShutdown: (context: ShutdownContext) => Promise<void>;
}

export async function startServiceProcess<C extends ProcessConfig, P extends Parts, S extends RunningService>(
  spec: ServiceProcessSpec<C, P, S>,
  factories: ProcessFactories = PROCESS_FACTORIES,
): Promise<StartedProcess<C, S>> {
  const config = spec.loadConfig();
  const logger = factories.createLogger(spec.name, config.LOG_LEVEL);
  const database = factories.openDatabase<unknown>(config.DATABASE_URL, spec.name, spec.schema, config.DATABASE_READ_URL, config.DATABASE_POOLER);
  const bus = factories.createBus(config.AMQP_URL, spec.name, logger);
  // The database is the service's schema, whose tables `start` names (P['database']).
  const service = await spec.start({ ...spec.options?.(config), config, database, bus, logger } as unknown as P);
  return {
    config,
    logger,
    service,
    onShutdown: async ({ graceMs }) => {
      await service.close({ graceMs });
      await bus.close();
      await database.close();
    },
  };
}

/** The whole `server.ts` of a service: start it, listen, shut down in order. */
export function runServiceProcess<C extends ProcessConfig, P extends Parts, S extends RunningService>(spec: ServiceProcessSpec<C, P, S>): void {
  startOrExit(async () => {
    const { config, logger, service, onShutdown } = await startServiceProcess(spec);
    await runServer({ app: service.app, port: config.PORT, host: config.HOST, logger, onShutdown });
  });
}
