// The catalogue as its own process (distributed mode): PostgreSQL + RabbitMQ.
import { sessionRevocationCheck } from '@persona/service-kit';
import { runServiceProcess, type ProcessParts } from '@persona/service-process';
import { loadCatalogueConfig, type CatalogueConfig } from './config';
import type { CatalogueDB } from './db';
import { CATALOGUE_SCHEMA, startCatalogueService } from './service';

runServiceProcess({
  name: 'catalogue',
  schema: CATALOGUE_SCHEMA,
  loadConfig: loadCatalogueConfig,
  start: ({ config, database, bus, logger }: ProcessParts<CatalogueConfig, CatalogueDB>) =>
    startCatalogueService({
      database,
      bus,
      logger,
      metricsToken: config.METRICS_TOKEN,
      jwtSecret: config.JWT_SECRET,
      isRevoked: config.ADMIN_URL && config.INTERNAL_TOKEN ? sessionRevocationCheck(config.ADMIN_URL, config.INTERNAL_TOKEN) : undefined,
      filesDir: config.FILES_DIR,
      seedDemo: config.SEED_DEMO,
      internalToken: config.INTERNAL_TOKEN,
    }),
});
