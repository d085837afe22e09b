export { buildApp, type AdminAppOptions } from './app';
export { startAdminService, adminMigrations, ADMIN_SCHEMA, type AdminService, type AdminServiceOptions } from './service';
export { AdminConfigSchema, loadAdminConfig, type AdminConfig } from './config';
export type { AdminDB } from './db';
