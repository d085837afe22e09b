import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger, DestinationStream };

/** JSON lines to stdout, or to `destination` (tests collect them; anything with write(line)). */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info', extra: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    name,
    level,
    base: { service: name },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'], censor: '[redacted]' },
    ...extra,
  };
  return destination ? pino(options, destination) : pino(options);
}
