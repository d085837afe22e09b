// A real PgBouncer in transaction mode (issue 25) in front of the local PostgreSQL: Debian's
// pgbouncer on a free loopback port, with an ini of its own in a folder of its own (trust, every
// database of TEST_DATABASE_URL's server); `close` stops it and removes the folder. PgBouncer will not
// run as root: as root it runs as the `postgres` OS user.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { postgresUser } from './pg-replica';
import { freePort, TEST_DATABASE_URL, tcpAnswers } from './servers';

const PGBOUNCER = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

/** Why no PgBouncer can be started here (null when one can). */
export function pgBouncerProblem(): string | null {
  if (!existsSync(PGBOUNCER)) return `${PGBOUNCER} is missing (apt-get install pgbouncer)`;
  if (!tcpAnswers(TEST_DATABASE_URL, 5432)) return `PostgreSQL does not answer at ${TEST_DATABASE_URL}`;
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0)
    return 'running as root, and there is no postgres OS user to run PgBouncer as';
  return null;
}

/** `describe` when PgBouncer can be started, else `describe.skip` with the reason (a failure on CI). */
export function describeWithPgBouncer(): jest.Describe {
  const problem = pgBouncerProblem();
  if (!problem) return describe;
  const message = `No PgBouncer: ${problem}. Skipping the tests that need it.`;
  if (process.env.CI) throw new Error(`${message} On CI this is a failure.`);
  console.warn(message);
  return describe.skip;
}

export interface TestPgBouncer {
  port: number;
  /** TEST_DATABASE_URL (or `database` on its server) through the pooler. */
  url(database?: string): string;
  close(): Promise<void>;
}

/** Starts PgBouncer with `pool_mode = transaction` and at most `poolSize` server connections per database and user. */
export async function startPgBouncer(poolSize = 3): Promise<TestPgBouncer> {
  const problem = pgBouncerProblem();
  if (problem) throw new Error(`no PgBouncer can be started: ${problem}`);
  const target = new URL(TEST_DATABASE_URL);
  const user = decodeURIComponent(target.username || 'postgres');
  const database = target.pathname.slice(1) || 'postgres';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pgbouncer-'));
  const port = await freePort();
  const ini = [
    '[databases]',
    `* = host=${target.hostname || '127.0.0.1'} port=${target.port || 5432}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    `unix_socket_dir = ${dir}`,
    'auth_type = trust',
    `auth_file = ${path.join(dir, 'users.txt')}`,
    'pool_mode = transaction',
    `default_pool_size = ${poolSize}`,
    'max_client_conn = 500',
    `logfile = ${path.join(dir, 'pgbouncer.log')}`,
    `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
  ];
  writeFileSync(path.join(dir, 'pgbouncer.ini'), `${ini.join('\n')}\n`);
  writeFileSync(path.join(dir, 'users.txt'), `"${user}" ""\n`);
  const owner = postgresUser();
  if (owner) for (const f of ['', 'pgbouncer.ini', 'users.txt']) chownSync(path.join(dir, f), owner.uid, owner.gid);
  // Started as the postgres user itself (no runuser between), so the signals below reach it.
  const child = spawn(PGBOUNCER, [path.join(dir, 'pgbouncer.ini')], { stdio: 'ignore', ...(owner ?? {}) });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const logTail = () => {
    try {
      return readFileSync(path.join(dir, 'pgbouncer.log'), 'utf8').slice(-2000);
    } catch {
      return '';
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // SIGTERM: immediate shutdown (SIGINT would wait for the clients to leave).
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      const log = logTail();
      await stop();
      throw new Error(`pgbouncer stopped at start: ${log}`);
    }
    const answers = await new Promise<boolean>((resolve) => {
      const socket = new net.Socket();
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
      socket.connect(port, '127.0.0.1');
    });
    if (answers) break;
    if (Date.now() > deadline) {
      const log = logTail();
      await stop();
      throw new Error(`pgbouncer did not listen within 15 s: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    url: (db = database) => `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${db}`,
    close: stop,
  };
}
