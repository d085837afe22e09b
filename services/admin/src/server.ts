// The admin service as its own process (distributed mode).
import { runServiceProcess, type ProcessParts } from '@persona/service-process';
import { loadAdminConfig, type AdminConfig } from './config';
import type { AdminDB } from './db';
import { ADMIN_SCHEMA, startAdminService } from './service';

runServiceProcess({
  name: 'admin',
  schema: ADMIN_SCHEMA,
  loadConfig: loadAdminConfig,
  start: ({ config, database, bus, logger }: ProcessParts<AdminConfig, AdminDB>) =>
    startAdminService({
      database,
      bus,
      logger,
      metricsToken: config.METRICS_TOKEN,
      jwtSecret: config.JWT_SECRET,
      internalToken: config.INTERNAL_TOKEN,
      catalogueUrl: config.CATALOGUE_URL,
      firstAdmin: { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD, name: config.ADMIN_NAME, generate: false },
    }),
});
