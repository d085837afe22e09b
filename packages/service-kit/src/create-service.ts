// The Fastify skeleton every service (and the gateway) starts from: request
// and correlation ids, strict validation, DESIGN §6's error shape, health and
// readiness, JSON poisoning refused.
import { randomUUID } from 'node:crypto';
import secureJson from 'secure-json-parse';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { HttpError, reasonPhrase } from './http-errors';
import { schemaErrorFormatter, validatorCompiler } from './validation';

export type ServiceApp = FastifyInstance<any, any, any, FastifyBaseLogger, TypeBoxTypeProvider>;

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
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Follows one user action across services, events and workers. */
    correlationId: string;
  }
}

const ID_PATTERN = /^[A-Za-z0-9._:-]{1,100}$/;

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
    schemaErrorFormatter,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Our own JSON parser, so a poisoned body is named as such instead of "not valid JSON".
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(new HttpError(400, 'The JSON body is empty', 'EMPTY_JSON_BODY'), undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      const poisoned = /forbidden (prototype|constructor) property/.test((err as Error).message);
      done(new HttpError(400, poisoned ? 'The body contains a forbidden property (__proto__ or constructor)' : 'The body is not valid JSON', poisoned ? 'FORBIDDEN_PROPERTY' : 'INVALID_JSON'), undefined);
    }
  });
  app.decorateRequest('correlationId', '');

  app.addHook('onRequest', async (request, reply) => {
    const incoming = request.headers['x-correlation-id'];
    request.correlationId = typeof incoming === 'string' && ID_PATTERN.test(incoming) ? incoming : request.id;
    reply.header('x-request-id', request.id);
  });

  app.addHook('onResponse', async (request, reply) => {
    request.log.debug({ method: request.method, url: request.url, statusCode: reply.statusCode, ms: reply.elapsedTime }, 'request');
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string; validation?: unknown }, request, reply) => {
    let status = error instanceof HttpError ? error.statusCode : (error.statusCode ?? 500);
    if (status < 400 || status > 599) status = 500;
    if (status >= 500 && !(error instanceof HttpError)) {
      request.log.error({ err: error, correlationId: request.correlationId }, 'request failed');
    } else if (status >= 500) {
      // A 5xx we chose to answer (a dependency down, a part not deployed): worth a warning, not a stack trace.
      request.log.warn({ statusCode: status, code: error.code, message: error.message, correlationId: request.correlationId }, 'request refused');
    } else {
      request.log.debug({ err: { message: error.message, code: error.code }, statusCode: status }, 'request refused');
    }
    const message = status >= 500 && !(error instanceof HttpError) ? 'Something went wrong on our side. Please try again.' : friendlyMessage(error, status);
    reply
      .status(status)
      .type('application/json; charset=utf-8')
      .send({ statusCode: status, error: reasonPhrase(status), message, ...(error.code ? { code: error.code } : {}), requestId: request.id });
  });

  app.setNotFoundHandler(
    options.notFoundHandler ??
      ((request, reply) => {
        reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `Route ${request.method} ${request.url.split('?')[0]} not found`, requestId: request.id });
      }),
  );

  const checks = options.readiness ?? {};
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok', service: options.name }));
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
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
    reply.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not ready', service: options.name, checks: results });
  });

  return app;
}

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

/** The readiness every service has: its database answers and its event bus is connected. */
export function backingReadiness(database: { ping(): Promise<void> }, bus: { isReady(): boolean }): Record<string, ReadinessCheck> {
  return {
    database: () => database.ping(),
    events: () => {
      if (!bus.isReady()) throw new Error('event bus not connected');
    },
  };
}
