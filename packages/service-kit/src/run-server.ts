// Listens and shuts down gracefully: on SIGTERM/SIGINT stop accepting, let
// in-flight requests finish (bounded), run the caller's clean-up, then exit.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

export interface RunOptions {
  app: FastifyInstance;
  port: number;
  host: string;
  logger: Logger;
  /** Called after the HTTP server closed (stop consumers, relays, pools). */
  onShutdown?: () => Promise<void>;
  shutdownTimeoutMs?: number;
}

export async function runServer(options: RunOptions): Promise<string> {
  const { app, logger } = options;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, options.shutdownTimeoutMs ?? 10_000);
    timer.unref();
    try {
      await app.close();
      await options.onShutdown?.();
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
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
