import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { ConfigError, loadConfig, Port } from '../src';

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
