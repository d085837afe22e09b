export { buildApp, type AdminAppOptions } from './app';
export { startAdminService, adminMigrations, ADMIN_SCHEMA, type AdminService, type AdminServiceOptions } from './service';
export { adminConfig, adminServiceOptions, type AdminConfig, type AdminSettings } from './config';
export type { AdminDB } from './db';
