// Listens and shuts down gracefully. On SIGTERM/SIGINT: stop accepting
// connections, give in-flight requests `requestGraceMs` (then cut their
// connections), then the caller's clean-up, which gets `messageGraceMs` for
// in-flight event handlers (they finish and are acknowledged, or their
// messages go back to the queue), flushes the outbox and closes pools. Past
// `shutdownTimeoutMs` the process exits non-zero; unacknowledged messages are
// then redelivered by the broker (or after the in-process lease). A process a
// launcher started with STOP_WITH_PARENT_ENV stops the same way when its
// launcher is gone, even one killed with SIGKILL (which no handler sees).
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

export interface ShutdownContext {
  /** How long in-flight event handlers (and the PDF under them) may still take before their messages are handed back. */
  graceMs: number;
}

export interface RunOptions {
  app: FastifyInstance;
  port: number;
  host: string;
  logger: Logger;
  /** Called after the HTTP server closed (stop consumers, relays, pools). */
  onShutdown?: (context: ShutdownContext) => Promise<void>;
  /** The whole shutdown; past it the process exits with code 1. Default 10000. */
  shutdownTimeoutMs?: number;
  /** In-flight requests get this long before their connections are closed. Default 3000. */
  requestGraceMs?: number;
  /** Handed to onShutdown for in-flight messages. Default 4000. */
  messageGraceMs?: number;
}

/**
 * Set to `stdin` by a launcher that starts this process with a pipe on its stdin and never writes
 * to it: the pipe ends when the launcher exits however it exits (the kernel closes a dead process's
 * end), and the process then shuts down as on SIGTERM. Without it a SIGKILLed test run or
 * `npm run start:distributed` left its services running, consuming the shared queues.
 */
export const STOP_WITH_PARENT_ENV = 'PERSONA_STOP_WITH_PARENT';

export const SHUTDOWN_DEFAULTS = { shutdownTimeoutMs: 10_000, requestGraceMs: 3_000, messageGraceMs: 4_000 } as const;

/**
 * Stops accepting connections and waits for in-flight requests; after
 * `graceMs` the connections still open are closed. Calling it again (or
 * app.close()) afterwards is harmless.
 */
export async function closeHttpServer(app: FastifyInstance, graceMs: number, logger?: Pick<Logger, 'warn'>): Promise<void> {
  const closing = app.close();
  const timer = setTimeout(() => {
    logger?.warn({ graceMs }, 'requests still running at the shutdown deadline; closing their connections');
    app.server.closeAllConnections?.();
  }, graceMs);
  timer.unref();
  try {
    await closing;
  } finally {
    clearTimeout(timer);
  }
}

export async function runServer(options: RunOptions): Promise<string> {
  const { app, logger } = options;
  const timeoutMs = options.shutdownTimeoutMs ?? SHUTDOWN_DEFAULTS.shutdownTimeoutMs;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown timed out; exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    try {
      await closeHttpServer(app, options.requestGraceMs ?? SHUTDOWN_DEFAULTS.requestGraceMs, logger);
      await options.onShutdown?.({ graceMs: options.messageGraceMs ?? SHUTDOWN_DEFAULTS.messageGraceMs });
      logger.info({ ms: Date.now() - started }, 'stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  if (process.env[STOP_WITH_PARENT_ENV] === 'stdin') {
    const parentGone = () => void stop('parent gone');
    process.stdin.once('end', parentGone).once('close', parentGone).once('error', parentGone);
    process.stdin.resume();
  }
  const address = await app.listen({ port: options.port, host: options.host });
  logger.info({ address }, 'listening');
  return address;
}

/** Runs `main`, printing a config or start-up error plainly and exiting non-zero. */
export function startOrExit(main: () => Promise<unknown>): void {
  main().catch((err: Error) => {
    process.stderr.write(`${err.name === 'ConfigError' ? '' : 'failed to start: '}${err.message}\n`);
    process.exit(1);
  });
}
