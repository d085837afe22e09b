export { loadConfig, ConfigError, CommonConfig, Port } from './config';
export { createLogger, type Logger } from './logger';
export * from './http-errors';
export { createServiceApp, backingReadiness, type ServiceApp, type ServiceOptions, type ReadinessCheck } from './create-service';
export { createAdminVerifier, requireAdmin, sessionRevocationCheck, type AdminClaims, type AdminAuthOptions, type AdminVerifier } from './auth';
export { runServer, startOrExit, type RunOptions } from './run-server';
export { describeValidationError, compileValidator } from './validation';
