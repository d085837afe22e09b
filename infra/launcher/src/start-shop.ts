// The embedded shop: one process, embedded PostgreSQL (PGlite) under the data
// folder, the durable in-process event bus, every service on a loopback port
// and the gateway in front. Same service code as the distributed mode.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN_SCHEMA, adminServiceOptions, adminConfig, startAdminService, type AdminDB } from '@persona/admin';
import { createInProcessBus } from '@persona/bus';
import { eventProblem } from '@persona/contracts';
import { CATALOGUE_SCHEMA, catalogueServiceOptions, catalogueConfig, startCatalogueService, type CatalogueDB } from '@persona/catalogue';
import { isPostgresSize, openDatabase, openPglite, type SharedPglite } from '@persona/db';
import { buildGateway, gatewayOptions, loadGatewaySettings } from '@persona/gateway';
import { ordersConfig, ORDERS_SCHEMA, ordersServiceOptions, startOrdersService, type OrdersDB } from '@persona/orders';
import {
  personalizationConfig,
  PERSONALIZATION_SCHEMA,
  personalizationServiceOptions,
  startPersonalizationService,
  type PersonalizationDB,
} from '@persona/personalization';
import { closeHttpServer, createLogger, sessionRevocationCheck, SHUTDOWN_DEFAULTS, type DestinationStream, type Logger } from '@persona/service-kit';
import { claimDataDir } from './data-lock';
import { PGLITE_TEMPLATE } from './make-pglite-template';
import { loadOrCreateSecrets } from './secrets';
import { freePort } from './free-port';
import { adminAppDist, storefrontDist } from './storefront-dir';

export interface ShopOptions {
  /** Where the database, files and secrets live. */
  dataDir: string;
  /** Gateway port; 0 picks a free one. */
  port?: number;
  host?: string;
  logLevel?: string;
  seedDemo?: boolean;
  /** Requests per minute per client at the gateway (0 = off); else RATE_LIMIT_MAX. */
  rateLimitMax?: number;
  /** Else PUBLIC_URL, else http://localhost:<port>. */
  publicUrl?: string;
  logger?: Logger;
  /** Where the shop's JSON log lines go when no `logger` is given (default stdout); tests collect them. */
  logDestination?: DestinationStream;
  /** The environment every service reads its settings from (the README's table; default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

export interface RunningShop {
  url: string;
  port: number;
  /** Set on the start that created the first administrator with a generated password (print it once). */
  generatedAdmin: { email: string; password: string } | null;
  /** Where each service listens inside the process (benchmarks and diagnostics). */
  upstreams: { catalogue: string; orders: string; personalization: string; admin: string };
  /** The embedded database, for tests that check what was (not) written; take its `lock` around any query. */
  database: SharedPglite;
  close(): Promise<void>;
}

export async function startShop(options: ShopOptions): Promise<RunningShop> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const env = options.env ?? process.env;
  const logger = options.logger ?? createLogger('shop', options.logLevel ?? env.LOG_LEVEL ?? 'warn', {}, options.logDestination);
  const sharedBuffers = env.PGLITE_SHARED_BUFFERS || undefined;
  if (sharedBuffers !== undefined && !isPostgresSize(sharedBuffers)) {
    throw new Error(`invalid configuration: PGLITE_SHARED_BUFFERS="${sharedBuffers}" is not a size such as 16MB (a whole number with kB, MB or GB)`);
  }
  const release = claimDataDir(dataDir, 'the shop');
  const closers: Array<() => Promise<void>> = [async () => release()];
  let pglite: Awaited<ReturnType<typeof openPglite>>;
  try {
    pglite = await openPglite(path.join(dataDir, 'db'), { template: PGLITE_TEMPLATE, sharedBuffers });
  } catch (err) {
    release();
    throw err;
  }
  closers.push(() => pglite.close());
  const secrets = await loadOrCreateSecrets(dataDir, env);
  const close = async () => {
    for (const fn of closers.reverse()) await fn().catch((err) => logger.error({ err }, 'shutdown step failed'));
  };

  try {
    const bus = createInProcessBus({
      database: openDatabase({ kind: 'pglite', shared: pglite }, 'bus'),
      logger: logger.child({ component: 'bus' }),
      check: eventProblem,
    });
    closers.push(() => bus.close());
    const database = <DB>(schema: string) => openDatabase<DB>({ kind: 'pglite', shared: pglite }, schema);

    // Every verifier asks the admin service about a token's session; its address is known once it listens.
    let adminUrl = '';
    const sessionCheck = (jti: string) => sessionRevocationCheck(adminUrl, secrets.internalToken)(jti);

    const port = options.port === 0 ? await freePort() : (options.port ?? 8080);
    // Each service reads its own settings, as its own process would, from the
    // environment and what the shop decides: the secrets, the public address,
    // the data folder's places (unless the environment names others) and
    // where the neighbours listen on loopback.
    const shared = {
      ...env,
      JWT_SECRET: secrets.jwtSecret,
      INTERNAL_TOKEN: secrets.internalToken,
      PUBLIC_URL: options.publicUrl ?? env.PUBLIC_URL ?? `http://localhost:${port}`,
      // One process on its own database: it migrates it as it starts, whatever a cluster's MIGRATIONS says.
      MIGRATIONS: 'apply',
    };
    const inData = (key: string, folder: string) => ({ [key]: env[key] || path.join(dataDir, folder) });
    // One event loop for the whole shop: the gateway sheds load for it at the edge (SHED_*), so a
    // request it let in is never refused halfway by a service it calls, and the services' start-up
    // (which holds the shared loop for seconds) is not taken for an overload once they listen.
    const shedAtTheGateway = { loadShedding: undefined };

    const catalogue = await startCatalogueService({
      database: database<CatalogueDB>(CATALOGUE_SCHEMA),
      bus,
      logger: logger.child({ service: 'catalogue' }),
      ...catalogueServiceOptions(
        catalogueConfig.loadSettings({
          ...shared,
          ...inData('FILES_DIR', 'files'),
          ...(options.seedDemo === undefined ? {} : { SEED_DEMO: String(options.seedDemo) }),
        }),
      ),
      ...shedAtTheGateway,
      isRevoked: sessionCheck,
    });
    closers.push(() => catalogue.close());
    const catalogueUrl = await catalogue.app.listen({ port: 0, host: '127.0.0.1' });

    const orders = await startOrdersService({
      database: database<OrdersDB>(ORDERS_SCHEMA),
      bus,
      logger: logger.child({ service: 'orders' }),
      ...ordersServiceOptions(ordersConfig.loadSettings({ ...shared, ...inData('MAIL_DIR', 'mail'), CATALOGUE_URL: catalogueUrl })),
      ...shedAtTheGateway,
      isRevoked: sessionCheck,
    });
    closers.push(() => orders.close());
    const ordersUrl = await orders.app.listen({ port: 0, host: '127.0.0.1' });

    const personalization = await startPersonalizationService({
      database: database<PersonalizationDB>(PERSONALIZATION_SCHEMA),
      bus,
      logger: logger.child({ service: 'personalization' }),
      ...personalizationServiceOptions(personalizationConfig.loadSettings({ ...shared, ...inData('PERSONAS_DIR', 'personas'), CATALOGUE_URL: catalogueUrl })),
      ...shedAtTheGateway,
      isRevoked: sessionCheck,
    });
    closers.push(() => personalization.close());
    const personalizationUrl = await personalization.app.listen({ port: 0, host: '127.0.0.1' });

    const admin = await startAdminService({
      database: database<AdminDB>(ADMIN_SCHEMA),
      bus,
      logger: logger.child({ service: 'admin' }),
      ...adminServiceOptions(adminConfig.loadSettings({ ...shared, CATALOGUE_URL: catalogueUrl }), { generateFirstAdmin: true }),
      ...shedAtTheGateway,
    });
    closers.push(() => admin.close());
    adminUrl = await admin.app.listen({ port: 0, host: '127.0.0.1' });

    const gateway = await buildGateway({
      ...gatewayOptions(
        loadGatewaySettings({
          ...shared,
          CATALOGUE_URL: catalogueUrl,
          ORDERS_URL: ordersUrl,
          PERSONALIZATION_URL: personalizationUrl,
          ADMIN_URL: adminUrl,
          STOREFRONT_DIR: env.STOREFRONT_DIR || storefrontDist(),
          ADMIN_APP_DIR: env.ADMIN_APP_DIR || adminAppDist(),
          ...(options.rateLimitMax === undefined ? {} : { RATE_LIMIT_MAX: String(options.rateLimitMax) }),
        }),
        port,
      ),
      logger: logger.child({ service: 'gateway' }),
    });
    closers.push(() => closeHttpServer(gateway, SHUTDOWN_DEFAULTS.requestGraceMs, logger));
    await gateway.listen({ port, host: options.host ?? '0.0.0.0' });
    const actual = (gateway.server.address() as { port: number }).port;
    return {
      url: `http://localhost:${actual}`,
      port: actual,
      generatedAdmin: admin.generatedAdmin,
      upstreams: { catalogue: catalogueUrl, orders: ordersUrl, personalization: personalizationUrl, admin: adminUrl },
      database: pglite,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
