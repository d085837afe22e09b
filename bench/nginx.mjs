// nginx as the bench's reference reverse proxy: Debian's nginx started by the
// bench with its own temporary prefix (config, pid, logs, temp dirs), in the
// foreground (`daemon off`) with a master and one worker per core, access log
// off, and a keep-alive pool to each upstream. One listening port per upstream.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The nginx binary (NGINX_BIN, else on PATH or the usual Debian place), or undefined. */
export function findNginx() {
  for (const candidate of process.env.NGINX_BIN ? [process.env.NGINX_BIN] : ['nginx', '/usr/sbin/nginx']) {
    const probe = spawnSync(candidate, ['-v'], { encoding: 'utf8' });
    if (probe.status === 0) return { bin: candidate, version: (probe.stderr || probe.stdout).trim().replace(/^nginx version:\s*/, '') };
  }
  return undefined;
}

function config(prefix, servers) {
  const upstreams = servers
    .map(({ name, upstream }) => {
      const { hostname, port } = new URL(upstream);
      return `  upstream ${name} {\n    server ${hostname}:${port};\n    keepalive 64;\n    keepalive_requests 1000000;\n  }`;
    })
    .join('\n');
  const listeners = servers
    .map(
      ({ name, port }) => `  server {
    listen 127.0.0.1:${port} reuseport;
    location / {
      proxy_pass http://${name};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Request-Id $request_id;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }`,
    )
    .join('\n');
  return `# written by bench/nginx.mjs for one bench run
daemon off;
master_process on;
worker_processes auto;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events {
  worker_connections 4096;
}
http {
  access_log off;
  keepalive_requests 1000000;
  keepalive_timeout 65;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
${upstreams}
${listeners}
}
`;
}

async function answers(url, deadline) {
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`nginx did not answer ${url} within 10 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** CPU seconds (user + system) of a process, from /proc. */
function cpuSecondsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}

/** CPU seconds of a process and its direct children (nginx's workers). */
export function cpuSecondsOfTree(pid) {
  let total = cpuSecondsOf(pid);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) total += cpuSecondsOf(Number(entry));
    } catch {
      // gone
    }
  }
  return total;
}

/**
 * Starts nginx proxying each `{ name, upstream, port }` (port: where nginx listens).
 * `probePath` is requested through every listener before returning.
 */
export async function startNginx({ bin, servers, probePath, tmpRoot }) {
  mkdirSync(tmpRoot, { recursive: true });
  const prefix = mkdtempSync(path.join(tmpRoot, 'nginx-'));
  mkdirSync(path.join(prefix, 'tmp'), { recursive: true });
  const conf = path.join(prefix, 'nginx.conf');
  writeFileSync(conf, config(prefix, servers));
  const test = spawnSync(bin, ['-t', '-q', '-p', prefix, '-c', conf, '-e', path.join(prefix, 'error.log')], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx rejected the bench config: ${test.stderr.trim()}`);
  const child = spawn(bin, ['-p', prefix, '-c', conf, '-e', path.join(prefix, 'error.log')], { stdio: ['ignore', 'ignore', 'inherit'] });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + 10_000;
  for (const s of servers) await answers(`http://127.0.0.1:${s.port}${probePath}`, deadline);
  return {
    pid: child.pid,
    urls: Object.fromEntries(servers.map((s) => [s.name, `http://127.0.0.1:${s.port}`])),
    cpuSeconds: () => cpuSecondsOfTree(child.pid),
    async stop() {
      if (!exited) {
        child.kill('SIGQUIT'); // graceful: workers finish, then the master exits
        await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 5000))]);
        if (!exited) child.kill('SIGKILL');
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
