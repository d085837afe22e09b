// The admin service as its own process (distributed mode).
import { runServiceProcess, type ProcessParts } from '@persona/service-process';
import { adminServiceOptions, loadAdminConfig, type AdminConfig } from './config';
import type { AdminDB } from './db';
import { ADMIN_SCHEMA, startAdminService } from './service';

runServiceProcess({
  name: 'admin',
  schema: ADMIN_SCHEMA,
  loadConfig: loadAdminConfig,
  start: ({ config, database, bus, logger }: ProcessParts<AdminConfig, AdminDB>) =>
    startAdminService({ database, bus, logger, ...adminServiceOptions(config) }),
});
