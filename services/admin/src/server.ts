// The admin service as its own process (distributed mode).
import { runServiceProcess } from '@persona/service-process';
import { adminConfig, adminServiceOptions } from './config';
import { ADMIN_SCHEMA, startAdminService } from './service';

runServiceProcess({ name: 'admin', schema: ADMIN_SCHEMA, loadConfig: adminConfig.loadProcess, options: adminServiceOptions, start: startAdminService });
