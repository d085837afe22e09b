export {
  loadConfig,
  ConfigError,
  CommonConfig,
  LoadSheddingSettings,
  loadSheddingOptions,
  Port,
  processConfig,
  retentionMs,
  serviceConfig,
  ServiceSettings,
  FileStoreSettings,
  s3Settings,
  sharedServiceOptions,
  withProcessConfig,
} from './config';
export { createLogger, type Logger, type DestinationStream } from './logger';
export { backgroundRounds, type BackgroundRounds } from './background-rounds';
export { quietGate, type QuietGate, type QuietGateOptions } from './quiet-gate';
export * from './http-errors';
export { checkDateRange } from './date-range';
export { internalOnly, INTERNAL_TOKEN_HEADER, sameSecret } from './secrets';
export { dataOf, getFromService, type ServiceAnswer, type ServiceCall } from './service-client';
export {
  createServiceApp,
  backingReadiness,
  baseServiceOptions,
  type AppBaseOptions,
  type ServiceApp,
  type ServiceOptions,
  type ReadinessCheck,
} from './create-service';
export { busyPage, UNDER_PRESSURE_CODE, UNDER_PRESSURE_MESSAGE, type LoadMeasure, type LoadSheddingOptions, type Pressure } from './load-shedding';
export {
  adminTokenOptions,
  createAdminVerifier,
  requireAdmin,
  requestOrigin,
  sessionRevocationCheck,
  type AdminClaims,
  type AdminAuthOptions,
  type AdminVerifier,
} from './auth';
export { runServer, startOrExit, closeHttpServer, SHUTDOWN_DEFAULTS, STOP_WITH_PARENT_ENV, type RunOptions, type ShutdownContext } from './run-server';
export {
  MetricsRegistry,
  Counter,
  Gauge,
  Histogram,
  httpLatencyHistogram,
  metricsHandler,
  HTTP_LATENCY_BUCKETS,
  METRICS_CONTENT_TYPE,
  UNMATCHED_ROUTE,
  type MetricsSink,
  type MetricOptions,
  type HistogramOptions,
  type LabelValues,
} from './metrics';
export { describeValidationError, compileValidator } from './validation';
export { clientAddress } from './client-address';
export { registerRouteRateLimits, sharedLimits, sharedLimitOptions, tooManyBody, type SharedLimits } from './rate-limits';
export { seededRandom, type SeededRandom } from './seeded-random';
export { readCursors, BAD_CURSOR_MESSAGE } from './page-cursors';
export * from './multipart-errors';
export { abandonedSignal } from './abandoned';
export { localUrlProblem, personaImageToken, printFileToken, printFileUrl, type PrintFile } from './public-url';
export {
  lazyRedis,
  redisBroadcast,
  redisSharedBytes,
  REDIS_ANSWER_MS,
  type Broadcast,
  type BroadcastHandlers,
  type LazyRedis,
  type SharedBytes,
} from './redis-shared';
export { ACTIVE_SECONDS, cachedSessionCheck, redisSessionCache, REVOKED_SECONDS, type SessionCache } from './session-cache';
export { ADMIN_SECURITY_SCHEME, OPENAPI_VERSION, operationTag, registerOpenApi } from './openapi';
export { keepJsonRaw } from './raw-json-body';
