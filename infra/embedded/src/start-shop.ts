// The embedded shop: one process, embedded PostgreSQL (PGlite) under the data
// folder, the durable in-process event bus, every service on a loopback port
// and the gateway in front. Same service code as the distributed mode.
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { ADMIN_SCHEMA, startAdminService, type AdminDB } from '@persona/admin';
import { createInProcessBus } from '@persona/bus';
import { startCatalogueService, CATALOGUE_SCHEMA, type CatalogueDB } from '@persona/catalogue';
import { openDatabase, openPglite, type SharedPglite } from '@persona/db';
import { buildGateway } from '@persona/gateway';
import { ORDERS_SCHEMA, startOrdersService, type OrdersDB } from '@persona/orders';
import { PERSONALIZATION_SCHEMA, startPersonalizationService, type PersonalizationDB } from '@persona/personalization';
import { closeHttpServer, createLogger, sessionRevocationCheck, SHUTDOWN_DEFAULTS, type DestinationStream, type Logger } from '@persona/service-kit';
import { claimDataDir } from './data-lock';
import { PGLITE_TEMPLATE } from './make-pglite-template';
import { loadOrCreateSecrets } from './secrets';
import { adminAppDist, storefrontDist } from './storefront-dir';

export interface ShopOptions {
  /** Where the database, files and secrets live. */
  dataDir: string;
  /** Gateway port; 0 picks a free one. */
  port?: number;
  host?: string;
  logLevel?: string;
  seedDemo?: boolean;
  /** Requests per minute per client at the gateway (0 = off). */
  rateLimitMax?: number;
  publicUrl?: string;
  logger?: Logger;
  /** Where the shop's JSON log lines go when no `logger` is given (default stdout); tests collect them. */
  logDestination?: DestinationStream;
  /** Environment for payments (RAZORPAY_*, PAYMENTS_MODE), mail (SMTP_URL), the signing key (SIGNING_KEY_PEM) and METRICS_TOKEN. */
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
  const logger = options.logger ?? createLogger('shop', options.logLevel ?? process.env.LOG_LEVEL ?? 'warn', {}, options.logDestination);
  const release = claimDataDir(dataDir, 'the shop');
  const closers: Array<() => Promise<void>> = [async () => release()];
  let pglite: Awaited<ReturnType<typeof openPglite>>;
  try {
    pglite = await openPglite(path.join(dataDir, 'db'), { template: PGLITE_TEMPLATE });
  } catch (err) {
    release();
    throw err;
  }
  closers.push(() => pglite.close());
  const secrets = await loadOrCreateSecrets(dataDir);
  const close = async () => {
    for (const fn of closers.reverse()) await fn().catch((err) => logger.error({ err }, 'shutdown step failed'));
  };

  try {
    const bus = createInProcessBus({ database: openDatabase({ kind: 'pglite', shared: pglite }, 'bus'), logger: logger.child({ component: 'bus' }) });
    closers.push(() => bus.close());

    // Every verifier asks the admin service about a token's session; its address is known once it listens.
    let adminUrl = '';
    const sessionCheck = (jti: string) => sessionRevocationCheck(adminUrl, secrets.internalToken)(jti);

    const catalogue = await startCatalogueService({
      database: openDatabase<CatalogueDB>({ kind: 'pglite', shared: pglite }, CATALOGUE_SCHEMA),
      bus,
      logger: logger.child({ service: 'catalogue' }),
      jwtSecret: secrets.jwtSecret,
      filesDir: path.join(dataDir, 'files'),
      seedDemo: options.seedDemo ?? true,
      internalToken: secrets.internalToken,
      isRevoked: sessionCheck,
    });
    closers.push(() => catalogue.close());
    const catalogueUrl = await catalogue.app.listen({ port: 0, host: '127.0.0.1' });

    const port = options.port === 0 ? await freePort() : (options.port ?? 8080);
    const publicUrl = options.publicUrl ?? `http://localhost:${port}`;
    const env = options.env ?? process.env;

    const orders = await startOrdersService({
      database: openDatabase<OrdersDB>({ kind: 'pglite', shared: pglite }, ORDERS_SCHEMA),
      bus,
      logger: logger.child({ service: 'orders' }),
      jwtSecret: secrets.jwtSecret,
      catalogueUrl,
      publicUrl,
      payments: {
        mode: env.PAYMENTS_MODE === 'live' || env.PAYMENTS_MODE === 'test' ? env.PAYMENTS_MODE : undefined,
        keyId: env.RAZORPAY_KEY_ID,
        keySecret: env.RAZORPAY_KEY_SECRET,
        webhookSecret: env.RAZORPAY_WEBHOOK_SECRET,
      },
      mail: { smtpUrl: env.SMTP_URL, dir: path.join(dataDir, 'mail'), from: env.MAIL_FROM ?? 'Persona Books <orders@persona-books.local>' },
      isRevoked: sessionCheck,
    });
    closers.push(() => orders.close());
    const ordersUrl = await orders.app.listen({ port: 0, host: '127.0.0.1' });

    const personalization = await startPersonalizationService({
      database: openDatabase<PersonalizationDB>({ kind: 'pglite', shared: pglite }, PERSONALIZATION_SCHEMA),
      bus,
      logger: logger.child({ service: 'personalization' }),
      catalogueUrl,
      internalToken: secrets.internalToken,
      publicUrl,
      personasDir: path.join(dataDir, 'personas'),
      signingKeyPem: env.SIGNING_KEY_PEM,
    });
    closers.push(() => personalization.close());
    const personalizationUrl = await personalization.app.listen({ port: 0, host: '127.0.0.1' });

    const admin = await startAdminService({
      database: openDatabase<AdminDB>({ kind: 'pglite', shared: pglite }, ADMIN_SCHEMA),
      bus,
      logger: logger.child({ service: 'admin' }),
      jwtSecret: secrets.jwtSecret,
      internalToken: secrets.internalToken,
      catalogueUrl,
      firstAdmin: { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD, name: env.ADMIN_NAME, generate: true },
    });
    closers.push(() => admin.close());
    adminUrl = await admin.app.listen({ port: 0, host: '127.0.0.1' });

    const gateway = await buildGateway({
      upstreams: { catalogue: catalogueUrl, orders: ordersUrl, personalization: personalizationUrl, admin: adminUrl },
      jwtSecret: secrets.jwtSecret,
      isRevoked: sessionCheck,
      storefrontDir: storefrontDist(),
      adminAppDir: adminAppDist(),
      publicUrl,
      rateLimitMax: options.rateLimitMax ?? 1200,
      // The gateway's /metrics is the only one reachable from outside the process.
      metricsToken: env.METRICS_TOKEN || undefined,
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

/** A free loopback port, so the public URL is known before the gateway listens. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
