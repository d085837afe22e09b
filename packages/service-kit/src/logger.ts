import pino, { type Logger, type LoggerOptions } from 'pino';

export type { Logger };

export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info', extra: LoggerOptions = {}): Logger {
  return pino({
    name,
    level,
    base: { service: name },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'], censor: '[redacted]' },
    ...extra,
  });
}
