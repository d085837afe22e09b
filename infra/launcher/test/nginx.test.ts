// The cluster's nginx stops with the process that started it, even when that process is SIGKILLed
// (a launcher killed hard would otherwise leave nginx holding the shop's port).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describeWithPrograms, NGINX } from '@persona/test-kit';
import { freePort } from '../src/free-port';
import { nginxCommand, writeNginxConfig } from '../src/nginx';

/** Running: a process that exited is gone, or a zombie its new parent has not reaped yet. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describeWithPrograms([NGINX], "the cluster's nginx")('nginx started by the launcher', () => {
  let prefix: string;
  beforeEach(async () => {
    prefix = await mkdtemp(path.join(os.tmpdir(), 'persona-nginx-'));
  });
  afterEach(() => rm(prefix, { recursive: true, force: true }));

  it('runs with a parent-death signal, so it stops when its parent is SIGKILLed', async () => {
    const port = await freePort();
    await writeNginxConfig({ prefix, publicPort: port, publicHost: '127.0.0.1', gateways: [await freePort()], services: [] });
    const { command, args } = nginxCommand(prefix);
    // A stand-in for the launcher: a shell that starts nginx as spawnNginx does and waits, printing nginx's pid.
    const quoted = [command, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const parent = spawn('sh', ['-c', `${quoted} </dev/null >/dev/null 2>&1 & echo $!; wait`], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    try {
      expect(await until(() => listening(port), 10_000)).toBe(true);
      parent.kill('SIGKILL');
      expect(await until(() => !alive(pid), 10_000)).toBe(true);
      expect(await listening(port)).toBe(false);
    } finally {
      // TERM: the master stops its workers too (a KILLed master would leave them running).
      if (alive(pid)) process.kill(pid, 'SIGTERM');
    }
  });
});
