// The embedded shop: one process, embedded PostgreSQL (PGlite) under the data
// folder, the durable in-process event bus, every service on a loopback port
// and the gateway in front. Same service code as the distributed mode.
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { createInProcessBus } from '@persona/bus';
import { startCatalogueService, CATALOGUE_SCHEMA, type CatalogueDB } from '@persona/catalogue';
import { openDatabase, openPglite } from '@persona/db';
import { buildGateway } from '@persona/gateway';
import { createLogger, type Logger } from '@persona/service-kit';
import { PGLITE_TEMPLATE } from './make-pglite-template';
import { loadOrCreateSecrets } from './secrets';
import { storefrontDist } from './storefront-dir';

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
}

export interface RunningShop {
  url: string;
  port: number;
  /** Where each service listens inside the process (benchmarks and diagnostics). */
  upstreams: { catalogue: string };
  close(): Promise<void>;
}

export async function startShop(options: ShopOptions): Promise<RunningShop> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const logger = options.logger ?? createLogger('shop', options.logLevel ?? process.env.LOG_LEVEL ?? 'warn');
  const secrets = await loadOrCreateSecrets(dataDir);
  const pglite = await openPglite(path.join(dataDir, 'db'), { template: PGLITE_TEMPLATE });
  const closers: Array<() => Promise<void>> = [() => pglite.close()];
  const close = async () => {
    for (const fn of closers.reverse()) await fn().catch((err) => logger.error({ err }, 'shutdown step failed'));
  };

  try {
    const bus = createInProcessBus({ database: openDatabase({ kind: 'pglite', shared: pglite }, 'bus'), logger: logger.child({ component: 'bus' }) });
    closers.push(() => bus.close());

    const catalogue = await startCatalogueService({
      database: openDatabase<CatalogueDB>({ kind: 'pglite', shared: pglite }, CATALOGUE_SCHEMA),
      bus,
      logger: logger.child({ service: 'catalogue' }),
      jwtSecret: secrets.jwtSecret,
      filesDir: path.join(dataDir, 'files'),
      seedDemo: options.seedDemo ?? true,
    });
    closers.push(() => catalogue.close());
    const catalogueUrl = await catalogue.app.listen({ port: 0, host: '127.0.0.1' });

    const port = options.port === 0 ? await freePort() : (options.port ?? 8080);
    const gateway = await buildGateway({
      upstreams: { catalogue: catalogueUrl },
      jwtSecret: secrets.jwtSecret,
      storefrontDir: storefrontDist(),
      publicUrl: options.publicUrl ?? `http://localhost:${port}`,
      rateLimitMax: options.rateLimitMax ?? 1200,
      logger: logger.child({ service: 'gateway' }),
    });
    closers.push(() => gateway.close());
    await gateway.listen({ port, host: options.host ?? '0.0.0.0' });
    const actual = (gateway.server.address() as { port: number }).port;
    return { url: `http://localhost:${actual}`, port: actual, upstreams: { catalogue: catalogueUrl }, close };
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
