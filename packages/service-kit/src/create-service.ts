// The Fastify skeleton every service (and the gateway) starts from: request
// and correlation ids (in every request log line, echoed to the caller),
// strict validation, DESIGN §6's error shape, health, readiness and /metrics,
// JSON poisoning refused, load shed while the process is saturated.
import { randomUUID } from 'node:crypto';
import secureJson from 'secure-json-parse';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { HttpError, reasonPhrase } from './http-errors';
import { registerLoadShedding, type LoadSheddingOptions } from './load-shedding';
import { ErrorBody, FileAnswer, Health, NoQuery, OpenApiDocument, Readiness } from '@persona/contracts';
import { httpLatencyHistogram, METRICS_CONTENT_TYPE, metricsHandler, MetricsRegistry, UNMATCHED_ROUTE } from './metrics';
import { registerOpenApi } from './openapi';
import { schemaErrorFormatter, validatorCompiler } from './validation';

export type ServiceApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

export type ReadinessCheck = () => Promise<void> | void;

export interface ServiceOptions {
  name: string;
  logger?: FastifyBaseLogger | false;
  bodyLimit?: number;
  /** Named checks for /readyz; each throws when its dependency is not usable. */
  readiness?: Record<string, ReadinessCheck>;
  trustProxy?: FastifyServerOptions['trustProxy'];
  /** Replaces the JSON 404 for unknown routes (the gateway serves the SPA's 404 page). */
  notFoundHandler?: (request: FastifyRequest, reply: FastifyReply) => unknown;
  /** `GET /metrics` then demands `Authorization: Bearer <token>` (METRICS_TOKEN); without it the route is open. */
  metricsToken?: string;
  /**
   * The limits (SHED_*) past which requests are answered 503 with Retry-After, /healthz says so and
   * /readyz fails its `load` check. Without it nothing is sampled or shed (route tests).
   */
  loadShedding?: LoadSheddingOptions;
  /** Which routes its OpenAPI document (/openapi.json) describes: all by default (the gateway: its API, not its pages). */
  describes?: (url: string) => boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Follows one user action across services, events and workers. */
    correlationId: string;
  }
  interface FastifyInstance {
    /** This service's Prometheus registry, served at /metrics. */
    metrics: MetricsRegistry;
  }
}

const ID_PATTERN = /^[A-Za-z0-9._:-]{1,100}$/;

/** The caller's x-correlation-id when it is a sane id, else this request's own id. */
function correlationIdOf(headers: Record<string, string | string[] | undefined>, requestId: string): string {
  const incoming = headers['x-correlation-id'];
  return typeof incoming === 'string' && ID_PATTERN.test(incoming) ? incoming : requestId;
}

const withCorrelationId: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, opts, rawReq) =>
  logger.child({ ...bindings, correlationId: correlationIdOf(rawReq.headers, String(bindings.reqId ?? '')) }, opts);

export function createServiceApp(options: ServiceOptions): ServiceApp {
  const app = Fastify({
    loggerInstance: options.logger === false || options.logger === undefined ? undefined : options.logger,
    logger: options.logger === false ? false : undefined,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: options.trustProxy ?? false,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Per-request lines are written by our onResponse hook at debug level.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && ID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
    // Every line a request logs carries its correlation id beside its request id (with no logger, nothing to bind).
    ...(options.logger ? { childLoggerFactory: withCorrelationId } : {}),
    schemaErrorFormatter,
    // The router's own refusals in DESIGN §6's shape, without echoing the (possibly huge) address back.
    frameworkErrors: (error, request, reply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : error.code === 'FST_ERR_BAD_URL' ? 400 : 500;
      const message =
        status === 414
          ? 'The address is too long: a part of it is over 100 characters'
          : status === 400
            ? 'The address is not valid: it has a broken %-escape'
            : 'Something went wrong on our side. Please try again.';
      (reply as FastifyReply)
        .status(status)
        .type('application/json; charset=utf-8')
        .send({ statusCode: status, error: reasonPhrase(status), message, code: error.code, requestId: request.id });
    },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();

  const metrics = new MetricsRegistry();
  const latency = httpLatencyHistogram(metrics);
  app.decorate('metrics', metrics);

  app.setValidatorCompiler(validatorCompiler);
  // Our own JSON parser, so a poisoned body is named as such instead of "not valid JSON".
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(new HttpError(400, 'The JSON body is empty', 'EMPTY_JSON_BODY'), undefined);
    try {
      const value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
      // PostgreSQL cannot store a NUL character: refused here rather than failing the query.
      if (text.includes('\\u0000') && hasNul(value))
        return done(new HttpError(400, 'The body contains a NUL character (\\u0000), which is not allowed', 'NUL_CHARACTER'), undefined);
      done(null, value);
    } catch (err) {
      const poisoned = /forbidden (prototype|constructor) property/.test((err as Error).message);
      done(
        new HttpError(
          400,
          poisoned ? 'The body contains a forbidden property (__proto__ or constructor)' : 'The body is not valid JSON',
          poisoned ? 'FORBIDDEN_PROPERTY' : 'INVALID_JSON',
        ),
        undefined,
      );
    }
  });
  // Only JSON (and the parsers a service adds, such as multipart): text/plain is a 415, not a string body.
  app.removeContentTypeParser('text/plain');
  app.decorateRequest('correlationId', '');

  // Callback hooks (not async): these run on every request, and a promise each is measurable at the gateway.
  app.addHook('onRequest', (request, reply, done) => {
    request.correlationId = correlationIdOf(request.headers, request.id);
    reply.header('x-request-id', request.id);
    reply.header('x-correlation-id', request.correlationId);
    if (request.url.includes('%') && /%00/i.test(request.url))
      return done(new HttpError(400, 'The address contains a NUL character (%00), which is not allowed', 'NUL_CHARACTER'));
    done();
  });

  // After the request ids (a shed answer carries them), before any service's own hooks and parsers.
  const load = options.loadShedding ? registerLoadShedding(app, options.loadShedding, metrics) : null;

  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    latency.observe({ method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status_code: reply.statusCode }, ms / 1000);
    request.log.debug({ method: request.method, url: request.url, statusCode: reply.statusCode, ms }, 'request');
    done();
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string; validation?: unknown; expose?: boolean }, request, reply) => {
    // An error that says `expose: true` (http-errors' convention; the db package's DatabaseUnavailableError)
    // chose its status and wrote its message for the client, like our own HttpError.
    const chosen = error instanceof HttpError || error.expose === true;
    let status = error instanceof HttpError ? error.statusCode : (error.statusCode ?? 500);
    if (status < 400 || status > 599) status = 500;
    // SQLSTATE class 22 (a value the column's type refuses) means input got past validation: the client's fault, not a 500.
    const badValue = status === 500 && !chosen && /^22[0-9A-Z]{3}$/.test(String(error.code));
    if (badValue) status = 400;
    if (badValue) {
      request.log.warn({ err: error }, 'a value the database refused reached it: tighten the validation');
    } else if (status >= 500 && !chosen) {
      request.log.error({ err: error }, 'request failed');
    } else if (status >= 500) {
      // A 5xx we chose to answer (a dependency down, a part not deployed): worth a warning, not a stack trace.
      request.log.warn({ statusCode: status, code: error.code, message: error.message }, 'request refused');
    } else {
      request.log.debug({ err: { message: error.message, code: error.code }, statusCode: status }, 'request refused');
    }
    const internal = badValue || (status >= 500 && !chosen);
    const message = badValue
      ? 'The request contains a value that is not valid here'
      : internal
        ? 'Something went wrong on our side. Please try again.'
        : friendlyMessage(error, status);
    // An error that chose its answer may carry headers for it (Fastify's convention: a 503's Retry-After).
    const headers = (error as { headers?: Record<string, string> }).headers;
    if (chosen && headers) reply.headers(headers);
    reply
      .status(status)
      .type('application/json; charset=utf-8')
      // An unexpected error's code (a SQLSTATE, a driver's) is internal detail: logged, never sent.
      .send({
        statusCode: status,
        error: reasonPhrase(status),
        message,
        ...(error.code && !badValue && status !== 500 ? { code: error.code } : {}),
        requestId: request.id,
      });
  });

  app.setNotFoundHandler(
    options.notFoundHandler ??
      ((request, reply) => {
        reply
          .status(404)
          .send({ statusCode: 404, error: 'Not Found', message: `Route ${request.method} ${request.url.split('?')[0]} not found`, requestId: request.id });
      }),
  );

  const checks: Record<string, ReadinessCheck> = { ...options.readiness };
  if (load) {
    checks.load = () => {
      const { reason } = load.pressure();
      if (reason) throw new Error(reason);
    };
  }
  // Before any route, so the document sees every one; the skeleton's own routes follow it.
  registerOpenApi(app, options.name, options.describes);
  app.after((err) => {
    if (err) throw err;
    // Never shed: a busy process is alive (an orchestrator must not kill it), and says why it is not ready.
    const neverShed = { logLevel: 'warn', config: { shed: false } } as const;
    // Whether the service sheds load, and why; the measures themselves are /metrics' (the gateway's /healthz is public).
    app.get('/healthz', { ...neverShed, schema: { querystring: NoQuery, response: { 200: Health } } }, async () => {
      if (!load) return { status: 'ok' as const, service: options.name };
      const { underPressure: busy, reason } = load.pressure();
      return { status: 'ok' as const, service: options.name, pressure: { underPressure: busy, ...(reason ? { reason } : {}) } };
    });
    app.get(
      '/metrics',
      {
        ...neverShed,
        exposeHeadRoute: false,
        schema: { querystring: NoQuery, response: { 200: FileAnswer('The Prometheus text format', [METRICS_CONTENT_TYPE]), 401: ErrorBody } },
      },
      metricsHandler(metrics, options.metricsToken),
    );
    app.get('/readyz', { ...neverShed, schema: { querystring: NoQuery, response: { 200: Readiness, 503: Readiness } } }, async (_request, reply) => {
      const results: Record<string, string> = {};
      let ok = true;
      await Promise.all(
        Object.entries(checks).map(async ([name, check]) => {
          try {
            await check();
            results[name] = 'ok';
          } catch (err) {
            ok = false;
            results[name] = (err as Error).message || 'failed';
          }
        }),
      );
      return reply.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not ready', service: options.name, checks: results });
    });
    // This service's own description, for the gateway's public document (the gateway never routes it).
    app.get(
      '/openapi.json',
      { schema: { hide: true, querystring: NoQuery, response: { 200: OpenApiDocument } } },
      async () => app.swagger() as OpenApiDocument,
    );
  });

  return app;
}

const hasNul = (value: unknown): boolean =>
  typeof value === 'string'
    ? value.includes('\0')
    : typeof value === 'object' && value !== null && Object.entries(value).some(([k, v]) => k.includes('\0') || hasNul(v));

function friendlyMessage(error: Error & { code?: string }, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The JSON body is empty';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The body is not valid JSON';
    default:
      break;
  }
  if (error instanceof SyntaxError) return 'The body is not valid JSON';
  return error.message || reasonPhrase(status);
}

/** What every service's `buildApp` takes besides its own options. */
export interface AppBaseOptions {
  logger?: FastifyBaseLogger | false;
  readiness?: Record<string, ReadinessCheck>;
  /** When set, /metrics demands `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /** When set (SHED_*), a saturated service answers 503 with Retry-After (see createServiceApp). */
  loadShedding?: LoadSheddingOptions;
  /** The outbox relay, woken after a change with events commits (none in route tests). */
  relay?: { nudge(): void };
  /** REDIS_URL: the rate limits count there, shared by every replica (rate-limits.ts); unset, in memory. */
  redisUrl?: string;
}

/** The readiness every service has: its database answers and its event bus is connected. */
/** The skeleton's options a service's `buildApp` passes on from its own (the same for every service). */
export function baseServiceOptions(name: string, options: AppBaseOptions): ServiceOptions {
  return { name, logger: options.logger ?? false, readiness: options.readiness, metricsToken: options.metricsToken, loadShedding: options.loadShedding };
}

export function backingReadiness(database: { ping(): Promise<void> }, bus: { isReady(): boolean }): Record<string, ReadinessCheck> {
  return {
    database: () => database.ping(),
    events: () => {
      if (!bus.isReady()) throw new Error('event bus not connected');
    },
  };
}
