// A real streaming read replica of the local PostgreSQL (issue 25): `pg_basebackup -R -X stream`
// of the server at TEST_DATABASE_URL into a folder of its own, started as a hot standby on a free
// loopback port, streaming through a replication slot of its own; `close` stops it, removes the
// folder and drops the slot. PostgreSQL refuses to run as root, so as
// root the copy and the standby run as the `postgres` OS user. The primary must accept
// replication connections from 127.0.0.1 (`host replication all 127.0.0.1/32 trust` in pg_hba.conf,
// wal_level replica or logical, max_wal_senders > 0: .ci/run sets this up).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, TEST_DATABASE_URL, tcpAnswers } from './servers';

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * The advisory lock that lets one base backup at a time run against the primary, whichever test
 * process asks. Two `pg_basebackup -c fast` at once race in PostgreSQL 15: one backup's immediate
 * checkpoint can end the other's WAL stream ("terminating process … to release replication slot
 * "pg_basebackup_…"", then "FATAL: terminating connection due to administrator command"), seen
 * when the catalogue's, the admin's and the database package's replica suites ran side by side.
 */
const BASE_BACKUP_LOCK = 0x7065_7273_6f6e_6162n; // 'personab'

/**
 * Each standby streams through a physical replication slot of its own (`pg_basebackup -C -S`), so the
 * primary keeps the WAL it has not yet received: without one, another backup's checkpoint could
 * recycle a segment the standby still needs ("requested WAL segment … has already been removed",
 * and the standby never catches up). The name carries the test process's id: a slot whose process is
 * gone (a killed run) is dropped by the next replica made, before it holds WAL for ever.
 */
const SLOT_PREFIX = 'persona_test_replica_';
let slots = 0;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const primary = () => {
  const u = new URL(TEST_DATABASE_URL);
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port || '5432',
    user: decodeURIComponent(u.username || 'postgres'),
    database: u.pathname.slice(1) || 'postgres',
  };
};

const asRoot = () => process.getuid?.() === 0;

/** As root: the postgres OS user's ids, to run PostgreSQL's programs as (they refuse root); else null. */
export function postgresUser(): { uid: number; gid: number } | null {
  if (!asRoot()) return null;
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) throw new Error('running as root, and there is no postgres OS user to run PostgreSQL as');
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

let knownProblem: string | null | undefined;

/** Why no replica can be made here (null when one can): binaries, the server, the replication permission. */
export function readReplicaProblem(): string | null {
  if (knownProblem !== undefined) return knownProblem;
  const p = primary();
  const problem = (() => {
    for (const bin of ['pg_basebackup', 'postgres', 'pg_isready'])
      if (!existsSync(path.join(PG_BIN, bin))) return `${path.join(PG_BIN, bin)} is missing (install postgresql-15, or set PG_BIN)`;
    if (!tcpAnswers(TEST_DATABASE_URL, 5432)) return `PostgreSQL does not answer at ${TEST_DATABASE_URL}`;
    if (asRoot() && spawnSync('id', ['-u', 'postgres']).status !== 0)
      return 'running as root, and there is no postgres OS user to run the standby as (PostgreSQL refuses root)';
    // A replication connection, as pg_basebackup makes it.
    const identify = spawnSync('psql', [`host=${p.host} port=${p.port} user=${p.user} dbname=${p.database} replication=database`, '-XAtc', 'IDENTIFY_SYSTEM'], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    if (identify.status !== 0)
      return `the server at ${p.host}:${p.port} refuses replication connections (${(identify.stderr || '').trim().split('\n')[0]}): add "host replication all 127.0.0.1/32 trust" to its pg_hba.conf and reload, with wal_level replica and max_wal_senders > 0 (.ci/run does this)`;
    return null;
  })();
  knownProblem = problem;
  return problem;
}

/** `describe` when a read replica can be made, else `describe.skip` with the reason (a failure on CI). */
export function describeWithReadReplica(): jest.Describe {
  const problem = readReplicaProblem();
  if (!problem) return describe;
  const message = `No read replica can be made: ${problem}. Skipping the tests that need one.`;
  if (process.env.CI) throw new Error(`${message} On CI this is a failure.`);
  console.warn(message);
  return describe.skip;
}

export interface TestReadReplica {
  port: number;
  /** The standby's URL for `database` (default: the primary URL's database). */
  url(database?: string): string;
  /** Stops applying the WAL it receives (`pg_wal_replay_pause`), so it lags the primary until `resumeReplay`. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the standby has replayed the primary's WAL as of now. */
  catchUp(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

function run(command: string, args: string[], timeoutMs: number): void {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: timeoutMs, cwd: '/', ...(postgresUser() ?? {}) });
  if (result.status !== 0) throw new Error(`${command} failed (${result.status ?? result.signal}): ${result.stderr || result.error?.message}`);
}

async function query<R>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as R[];
  } finally {
    await client.end();
  }
}

/**
 * Runs `work` holding BASE_BACKUP_LOCK on the primary (the lock's session ends with it), after
 * dropping the slots of test processes that are gone.
 */
async function oneAtATime(work: () => void): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [BASE_BACKUP_LOCK.toString()]);
    const { rows } = await client.query<{ slot_name: string }>(
      `SELECT slot_name FROM pg_replication_slots WHERE slot_type = 'physical' AND NOT active AND starts_with(slot_name, $1)`,
      [SLOT_PREFIX],
    );
    for (const { slot_name } of rows) {
      const pid = Number(slot_name.slice(SLOT_PREFIX.length).split('_')[0]);
      if (!processAlive(pid)) await client.query('SELECT pg_drop_replication_slot($1)', [slot_name]);
    }
    work();
  } finally {
    await client.end();
  }
}

/** Drops `slot` once its standby has let go of it (a stopped walsender takes a moment to end). */
async function dropSlot(slot: string): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    const [row] = await query<{ active: boolean }>(TEST_DATABASE_URL, 'SELECT active FROM pg_replication_slots WHERE slot_name = $1', [slot]);
    if (!row) return;
    if (!row.active) {
      await query(TEST_DATABASE_URL, 'SELECT pg_drop_replication_slot($1)', [slot]);
      return;
    }
    if (Date.now() > until) throw new Error(`the replication slot ${slot} is still in use 10 s after its standby stopped`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startReadReplica(): Promise<TestReadReplica> {
  const problem = readReplicaProblem();
  if (problem) throw new Error(`no read replica can be made: ${problem}`);
  const p = primary();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pg-replica-'));
  const data = path.join(dir, 'data');
  const owner = postgresUser();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  let child: ChildProcess | null = null;
  slots += 1;
  const slot = `${SLOT_PREFIX}${process.pid}_${slots}`;
  const remove = async () => {
    rmSync(dir, { recursive: true, force: true });
    await dropSlot(slot);
  };
  try {
    await oneAtATime(() =>
      run(
        path.join(PG_BIN, 'pg_basebackup'),
        ['-h', p.host, '-p', p.port, '-U', p.user, '-D', data, '-R', '-X', 'stream', '-c', 'fast', '-C', '-S', slot],
        120_000,
      ),
    );
    // Debian keeps the configuration outside the data folder: the standby gets its own. Hot standby
    // needs these limits at least as high as the primary's.
    const limits = await query<{ name: string; setting: string }>(
      TEST_DATABASE_URL,
      `SELECT name, setting FROM pg_settings WHERE name IN ('max_connections','max_worker_processes','max_wal_senders','max_prepared_transactions','max_locks_per_transaction')`,
    );
    const port = await freePort();
    const conf = [
      `listen_addresses = '127.0.0.1'`,
      `port = ${port}`,
      `unix_socket_directories = '${dir}'`,
      `hot_standby = on`,
      `fsync = off`,
      `shared_buffers = 32MB`,
      ...limits.map((l) => `${l.name} = ${l.setting}`),
    ];
    writeFileSync(path.join(data, 'postgresql.conf'), `${conf.join('\n')}\n`);
    writeFileSync(path.join(data, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
    if (owner) for (const f of ['postgresql.conf', 'pg_hba.conf']) chownSync(path.join(data, f), owner.uid, owner.gid);
    const log: string[] = [];
    // As the postgres user itself (no runuser between), so the signals below reach it.
    const started = spawn(path.join(PG_BIN, 'postgres'), ['-D', data], { stdio: ['ignore', 'pipe', 'pipe'], cwd: '/', ...(owner ?? {}) });
    child = started;
    started.stderr.on('data', (chunk: Buffer) => log.push(chunk.toString()));
    started.stdout.on('data', () => undefined);
    const exited = new Promise<void>((resolve) => started.once('exit', () => resolve()));
    const url = (database = p.database) => `postgres://${encodeURIComponent(p.user)}@127.0.0.1:${port}/${database}`;

    const deadline = Date.now() + 60_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`the standby stopped at start: ${log.join('').slice(-2000)}`);
      try {
        const [row] = await query<{ standby: boolean }>(url(), 'SELECT pg_is_in_recovery() AS standby');
        if (!row?.standby) throw new Error('the copy is not in recovery: it is no standby');
        break;
      } catch (err) {
        if (err instanceof Error && /no standby/.test(err.message)) throw err;
        if (Date.now() > deadline) throw new Error(`the standby did not answer within 60 s: ${log.join('').slice(-2000)}`, { cause: err });
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }

    const replica: TestReadReplica = {
      port,
      url,
      async pauseReplay() {
        await query(url(), 'SELECT pg_wal_replay_pause()');
      },
      async resumeReplay() {
        await query(url(), 'SELECT pg_wal_replay_resume()');
      },
      async catchUp(timeoutMs = 10_000) {
        const [{ lsn }] = await query<{ lsn: string }>(TEST_DATABASE_URL, 'SELECT pg_current_wal_insert_lsn()::text AS lsn');
        const until = Date.now() + timeoutMs;
        for (;;) {
          const [{ done }] = await query<{ done: boolean }>(url(), `SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS done`);
          if (done) return;
          if (Date.now() > until) throw new Error(`the standby did not replay ${lsn} within ${timeoutMs} ms`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      },
      async close() {
        // Fast shutdown (SIGINT): sessions are ended, nothing needs to be flushed.
        if (started.exitCode === null) {
          started.kill('SIGINT');
          const killer = setTimeout(() => started.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(killer);
        }
        await remove();
      },
    };
    return replica;
  } catch (err) {
    if (child && child.exitCode === null) {
      const gone = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }
    await remove();
    throw err;
  }
}
