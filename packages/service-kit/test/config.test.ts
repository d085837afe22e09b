import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import {
  adminTokenOptions,
  ConfigError,
  FileStoreSettings,
  s3Settings,
  loadConfig,
  LoadSheddingSettings,
  loadSheddingOptions,
  Port,
  serviceConfig,
  ServiceSettings,
  sharedServiceOptions,
} from '../src';

const schema = Type.Object({
  PORT: Port(3001),
  DATABASE_URL: Type.String({ pattern: '^postgres(ql)?://' }),
  FLAG: Type.Boolean({ default: false }),
});

describe('loadConfig', () => {
  it('converts and defaults', () => {
    expect(loadConfig(schema, { DATABASE_URL: 'postgres://x', FLAG: 'true' })).toEqual({ PORT: 3001, DATABASE_URL: 'postgres://x', FLAG: true });
    expect(loadConfig(schema, { DATABASE_URL: 'postgres://x', PORT: '8080' }).PORT).toBe(8080);
  });

  it('names the missing or bad variable', () => {
    expect(() => loadConfig(schema, {})).toThrow(/DATABASE_URL is required/);
    try {
      loadConfig(schema, { DATABASE_URL: 'mysql://x', PORT: 'eighty' });
      throw new Error('should have failed');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(/PORT="eighty"/);
      expect((err as Error).message).toMatch(/DATABASE_URL="mysql:\/\/x"/);
    }
  });
});

describe('loadConfig with NAME_FILE', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cfg-'));

  it('reads a value from the file NAME_FILE names', () => {
    writeFileSync(`${dir}/db`, 'postgres://from-file\n');
    expect(loadConfig(schema, { DATABASE_URL_FILE: `${dir}/db` }).DATABASE_URL).toBe('postgres://from-file');
  });

  it('prefers NAME itself and names an unreadable file', () => {
    expect(loadConfig(schema, { DATABASE_URL: 'postgres://env', DATABASE_URL_FILE: `${dir}/nope` }).DATABASE_URL).toBe('postgres://env');
    expect(() => loadConfig(schema, { DATABASE_URL_FILE: `${dir}/nope` })).toThrow(/DATABASE_URL_FILE=".*nope": cannot be read \(ENOENT\)/);
  });
});

/** What every service sheds load at unless SHED_* says otherwise. */
const SHED_DEFAULTS = { maxEventLoopDelayMs: 1000, maxEventLoopUtilization: 0, maxHeapUsedRatio: 0.9, maxRssBytes: 0, retryAfterS: 5 };

describe('the load shedding settings (SHED_*)', () => {
  const schema = Type.Object(LoadSheddingSettings);

  it('default to shedding only a stalled or nearly full process, and turn a measure off with 0', () => {
    expect(loadSheddingOptions(loadConfig(schema, {}))).toEqual(SHED_DEFAULTS);
    const env = { SHED_EVENT_LOOP_DELAY_MS: '0', SHED_EVENT_LOOP_UTILIZATION: '0.9', SHED_HEAP_USED_RATIO: '0', SHED_RSS_MB: '1536', SHED_RETRY_AFTER_S: '30' };
    expect(loadSheddingOptions(loadConfig(schema, env))).toEqual({
      maxEventLoopDelayMs: 0,
      maxEventLoopUtilization: 0.9,
      maxHeapUsedRatio: 0,
      maxRssBytes: 1536 * 1024 * 1024,
      retryAfterS: 30,
    });
  });

  it.each([
    ['SHED_EVENT_LOOP_DELAY_MS', 'soon'],
    ['SHED_EVENT_LOOP_DELAY_MS', '-1'],
    // A share is below 1 (utilisation can never exceed 1, so 1 would never shed: 0 is how to turn it off).
    ['SHED_EVENT_LOOP_UTILIZATION', '1'],
    ['SHED_EVENT_LOOP_UTILIZATION', '98%'],
    ['SHED_HEAP_USED_RATIO', '1.5'],
    ['SHED_HEAP_USED_RATIO', '-0.1'],
    ['SHED_RSS_MB', '2GB'],
    ['SHED_RETRY_AFTER_S', '0'],
    ['SHED_RETRY_AFTER_S', 'later'],
  ])('refuse %s=%s, naming it', (name, value) => {
    expect(() => loadConfig(schema, { [name]: value })).toThrow(new RegExp(`${name}=${JSON.stringify(value)}`));
  });

  it('are read by every service', () => {
    const settings = serviceConfig(Type.Object({ ...ServiceSettings }), 3009).loadSettings({ SHED_RETRY_AFTER_S: '9' });
    expect(sharedServiceOptions(settings).loadShedding).toEqual({ ...SHED_DEFAULTS, retryAfterS: 9 });
  });
});

describe('serviceConfig', () => {
  const config = serviceConfig(Type.Object({ ...ServiceSettings, NAME: Type.String() }), 3009);

  it('reads the settings in either run mode, and the process adds where it listens and runs', () => {
    const settings = config.loadSettings({ NAME: 'shop', EVENTS_RETENTION_DAYS: '2' });
    expect(settings).toMatchObject({ NAME: 'shop', EVENTS_RETENTION_DAYS: 2 });
    expect(sharedServiceOptions(settings)).toEqual({
      metricsToken: undefined,
      eventRetentionMs: 2 * 86_400_000,
      migrationMode: 'apply',
      loadShedding: SHED_DEFAULTS,
    });
    // A cluster's release step migrates; its processes only check (issue 25).
    expect(sharedServiceOptions(config.loadSettings({ NAME: 'shop', MIGRATIONS: 'check' })).migrationMode).toBe('check');
    expect(() => config.loadSettings({ NAME: 'shop', MIGRATIONS: 'later' })).toThrow(/MIGRATIONS/);
    const own = config.loadProcess({ NAME: 'shop', DATABASE_URL: 'postgres://db/shop', AMQP_URL: 'amqp://mq' });
    expect(own).toMatchObject({ NAME: 'shop', PORT: 3009, HOST: '0.0.0.0', LOG_LEVEL: 'info', EVENTS_RETENTION_DAYS: 14 });
    expect(() => config.loadProcess({ NAME: 'shop' })).toThrow(/DATABASE_URL is required/);
    expect(() => config.loadSettings({ NAME: 'shop', METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN="short"/);
  });

  it('checks admin sessions only when the admin service and the internal token are both known', () => {
    const secret = 's'.repeat(40);
    expect(adminTokenOptions({ JWT_SECRET: secret })).toEqual({ jwtSecret: secret, isRevoked: undefined });
    expect(adminTokenOptions({ JWT_SECRET: secret, ADMIN_URL: 'http://admin' }).isRevoked).toBeUndefined();
    expect(typeof adminTokenOptions({ JWT_SECRET: secret, ADMIN_URL: 'http://admin', INTERNAL_TOKEN: 'i'.repeat(40) }).isRevoked).toBe('function');
  });
});

describe('the file store settings', () => {
  const schema = Type.Object({ ...FileStoreSettings });
  it('keep files on the local disk unless FILE_STORE=s3, which needs a bucket', () => {
    expect(s3Settings(loadConfig(schema, {}))).toBeUndefined();
    expect(() => s3Settings(loadConfig(schema, { FILE_STORE: 's3' }))).toThrow('FILE_STORE=s3 needs S3_BUCKET: the bucket the files are kept in');
    expect(s3Settings(loadConfig(schema, { FILE_STORE: 's3', S3_BUCKET: 'persona-files', S3_ENDPOINT: 'http://minio:9000', S3_PREFIX: 'shop/' }))).toEqual({
      bucket: 'persona-files',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      prefix: 'shop/',
    });
    expect(() => loadConfig(schema, { FILE_STORE: 'disk' })).toThrow(/FILE_STORE/);
    expect(() => loadConfig(schema, { FILE_STORE: 's3', S3_BUCKET: 'Bad_Bucket' })).toThrow(/S3_BUCKET/);
  });
});
