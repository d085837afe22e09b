// The gateway as its own process (distributed mode).
import { createLogger, runServer, sessionRevocationCheck, startOrExit } from '@persona/service-kit';
import { buildGateway } from './app';
import { loadGatewayConfig } from './config';

startOrExit(async () => {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const app = await buildGateway({
    upstreams: {
      catalogue: config.CATALOGUE_URL,
      orders: config.ORDERS_URL,
      personalization: config.PERSONALIZATION_URL,
      admin: config.ADMIN_URL,
    },
    jwtSecret: config.JWT_SECRET,
    isRevoked: config.ADMIN_URL && config.INTERNAL_TOKEN ? sessionRevocationCheck(config.ADMIN_URL, config.INTERNAL_TOKEN) : undefined,
    storefrontDir: config.STOREFRONT_DIR,
    adminAppDir: config.ADMIN_APP_DIR,
    publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    corsOrigins: config.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean),
    rateLimitMax: config.RATE_LIMIT_MAX,
    trustProxy: config.TRUST_PROXY,
    metricsToken: config.METRICS_TOKEN,
    logger,
  });
  await runServer({ app, port: config.PORT, host: config.HOST, logger });
});
