// Load shedding (DESIGN §7: a saturated service sheds load with 503 +
// Retry-After instead of stalling), on @fastify/under-pressure: it samples the
// event loop's delay and utilisation, V8's heap and the resident memory every
// second; while one is over its limit every route that may be shed is answered
// at once, before its body is read. Health, readiness and /metrics never are
// (route config `shed: false`): liveness must not get a busy process killed,
// and readiness is how a load balancer learns to send its traffic elsewhere.
import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MetricsRegistry } from './metrics';

/** The limits (SHED_* in the configuration); 0 turns a measure off. */
export interface LoadSheddingOptions {
  /** Mean event-loop delay over a sampling interval, milliseconds. */
  maxEventLoopDelayMs: number;
  /** Share of a sampling interval the event loop was busy, below 1. */
  maxEventLoopUtilization: number;
  /** V8 heap in use as a share of V8's heap limit, below 1. */
  maxHeapUsedRatio: number;
  /** Resident memory of the whole process (worker threads included), bytes. */
  maxRssBytes: number;
  /** What a shed request is told to wait (Retry-After), seconds. */
  retryAfterS: number;
  /** How often the measures are sampled (1000 ms; tests make it short). */
  sampleIntervalMs?: number;
}

export type LoadMeasure = 'eventLoopDelay' | 'eventLoopUtilization' | 'heapUsed' | 'rss';

/** What /healthz says about the load: the last sample, and which limit is exceeded. */
export interface Pressure {
  underPressure: boolean;
  /** Which measure is over its limit, in words (only while under pressure). */
  reason?: string;
  eventLoopDelayMs: number;
  eventLoopUtilization: number;
  heapUsedBytes: number;
  heapUsedRatio: number;
  rssBytes: number;
}

export interface LoadMonitor {
  /** The last sample against the limits (read after the app is ready). */
  pressure(): Pressure;
}

export const UNDER_PRESSURE_CODE = 'UNDER_PRESSURE';
export const UNDER_PRESSURE_MESSAGE = 'The shop is very busy right now, please try again in a few seconds';

/** A sustained overload logs one warning this often, with how many requests were shed meanwhile. */
const WARN_EVERY_MS = 10_000;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: answered even while the service sheds load (health, readiness, metrics). */
    shed?: boolean;
  }
}

/** A browser's request for a page: a GET whose Accept names HTML (fetch and XHR ask for JSON or anything). */
function isPageNavigation(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && /\btext\/html\b/.test(request.headers.accept ?? '');
}

/**
 * The page a shed navigation gets: the busy message, and a refresh after Retry-After seconds, so
 * the visitor's browser comes back by itself (meta refresh needs no script and no style, which the
 * pages' security policy would refuse inline).
 */
export function busyPage(retryAfterS: number): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${retryAfterS}"><title>Very busy right now</title></head>
<body><h1>Very busy right now</h1><p>${UNDER_PRESSURE_MESSAGE}.</p><p>This page will try again by itself in ${retryAfterS} seconds.</p></body></html>
`;
}

/** under-pressure's names for the measures (its pressure handler's `type`). */
const MEASURE_OF: Record<string, LoadMeasure> = {
  [underPressure.TYPE_EVENT_LOOP_DELAY]: 'eventLoopDelay',
  [underPressure.TYPE_EVENT_LOOP_UTILIZATION]: 'eventLoopUtilization',
  [underPressure.TYPE_HEAP_USED_BYTES]: 'heapUsed',
  [underPressure.TYPE_RSS_BYTES]: 'rss',
};

const percent = (ratio: number) => `${Math.round(ratio * 1000) / 10}%`;
const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * Registers the sampler and the shedding hook on `app` (call it after the hooks
 * that must run on a shed request too: request ids). Null when every measure is off.
 */
export function registerLoadShedding(app: FastifyInstance, options: LoadSheddingOptions, metrics: MetricsRegistry): LoadMonitor | null {
  const heapLimit = getHeapStatistics().heap_size_limit;
  const limits: Record<LoadMeasure, number> = {
    eventLoopDelay: options.maxEventLoopDelayMs,
    eventLoopUtilization: options.maxEventLoopUtilization,
    heapUsed: Math.floor(options.maxHeapUsedRatio * heapLimit),
    rss: options.maxRssBytes,
  };
  if (Object.values(limits).every((limit) => limit <= 0)) return null;

  const describe = (measure: LoadMeasure, value: number): string => {
    switch (measure) {
      case 'eventLoopDelay':
        // (The plugin counts an interval in which the loop never turned as an infinite delay.)
        return Number.isFinite(value)
          ? `event loop delay ${Math.round(value)} ms is over its limit of ${limits.eventLoopDelay} ms`
          : `the event loop was held for a whole sampling interval (its delay limit is ${limits.eventLoopDelay} ms)`;
      case 'eventLoopUtilization':
        return `event loop utilisation ${percent(value)} is over its limit of ${percent(limits.eventLoopUtilization)}`;
      case 'heapUsed':
        return `heap in use ${percent(value / heapLimit)} of V8's limit is over its limit of ${percent(options.maxHeapUsedRatio)}`;
      case 'rss':
        return `resident memory ${megabytes(value)} is over its limit of ${megabytes(limits.rss)}`;
    }
  };

  const shed = metrics.counter({
    name: 'http_requests_shed_total',
    help: 'Requests answered 503 because the service was under pressure, by the measure over its limit',
    labelNames: ['measure'],
  });
  const retryAfter = String(options.retryAfterS);
  let warnedAt = 0;
  let shedSinceWarning = 0;

  // The pressure handler decides per route; a body it returns is sent as the answer.
  const pressureHandler = (request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) => {
    if (request.routeOptions.config.shed === false) return undefined;
    const measure = MEASURE_OF[type] ?? 'eventLoopDelay';
    shed.inc({ measure });
    shedSinceWarning += 1;
    const now = Date.now();
    if (now - warnedAt >= WARN_EVERY_MS) {
      // One line per overload (not one per request, which would add to it), naming the measure.
      app.log.warn({ measure, value, limit: limits[measure], shed: shedSinceWarning }, `shedding load: ${describe(measure, value ?? 0)}`);
      warnedAt = now;
      shedSinceWarning = 0;
    }
    reply.status(503).header('retry-after', retryAfter);
    // A browser asking for a page gets a page that tries again by itself (a JSON body would be all it showed).
    if (isPageNavigation(request)) {
      reply.type('text/html; charset=utf-8');
      return busyPage(options.retryAfterS);
    }
    return { statusCode: 503, error: 'Service Unavailable', message: UNDER_PRESSURE_MESSAGE, code: UNDER_PRESSURE_CODE, requestId: request.id };
  };

  void app.register(underPressure, {
    maxEventLoopDelay: limits.eventLoopDelay,
    maxEventLoopUtilization: limits.eventLoopUtilization,
    // Since the last sample: the plugin's default, since it started, hardly moves in a long-lived process.
    eventLoopUtilizationMode: 'interval',
    maxHeapUsedBytes: limits.heapUsed,
    maxRssBytes: limits.rss,
    sampleInterval: options.sampleIntervalMs ?? 1000,
    retryAfter: options.retryAfterS,
    // (Its types say void; its README and code send any other value as the answer.)
    pressureHandler: pressureHandler as (request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) => void,
  });

  const pressure = (): Pressure => {
    const usage = app.memoryUsage();
    const values: Record<LoadMeasure, number> = {
      eventLoopDelay: usage.eventLoopDelay,
      heapUsed: usage.heapUsed,
      rss: usage.rssBytes,
      eventLoopUtilization: usage.eventLoopUtilized,
    };
    // In the plugin's order, so the reason names the measure its hook sheds for.
    const over = (['eventLoopDelay', 'heapUsed', 'rss', 'eventLoopUtilization'] as const).find((m) => limits[m] > 0 && values[m] > limits[m]);
    return {
      underPressure: over !== undefined,
      ...(over ? { reason: describe(over, values[over]) } : {}),
      eventLoopDelayMs: Math.round(values.eventLoopDelay * 10) / 10,
      eventLoopUtilization: Math.round(values.eventLoopUtilization * 1000) / 1000,
      heapUsedBytes: values.heapUsed,
      heapUsedRatio: Math.round((values.heapUsed / heapLimit) * 1000) / 1000,
      rssBytes: values.rss,
    };
  };

  const gauges = {
    underPressure: metrics.gauge({ name: 'load_shedding_under_pressure', help: '1 while a load measure is over its limit and requests are shed' }),
    delay: metrics.gauge({ name: 'load_shedding_event_loop_delay_seconds', help: 'Mean event-loop delay over the last sampling interval' }),
    utilization: metrics.gauge({ name: 'load_shedding_event_loop_utilization', help: 'Share of the last sampling interval the event loop was busy' }),
    heap: metrics.gauge({ name: 'load_shedding_heap_used_ratio', help: "V8 heap in use as a share of V8's heap limit, at the last sample" }),
  };
  metrics.onCollect('load-shedding', () => {
    const now = pressure();
    gauges.underPressure.set(undefined, now.underPressure ? 1 : 0);
    gauges.delay.set(undefined, now.eventLoopDelayMs / 1000);
    gauges.utilization.set(undefined, now.eventLoopUtilization);
    gauges.heap.set(undefined, now.heapUsedRatio);
  });

  return { pressure };
}
