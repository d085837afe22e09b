import { spawn } from 'node:child_process';
import path from 'node:path';
import { closeHttpServer, createServiceApp, STOP_WITH_PARENT_ENV } from '../src';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('closeHttpServer', () => {
  it('refuses new connections, lets an in-flight request finish, and cuts one still running at the deadline', async () => {
    const app = createServiceApp({ name: 'closing', logger: false });
    let entered = 0;
    app.get('/quick', async () => {
      entered++;
      await new Promise((r) => setTimeout(r, 300));
      return { done: true };
    });
    app.get('/stuck', async () => {
      entered++;
      await new Promise((r) => setTimeout(r, 60_000).unref());
      return { done: false };
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const quick = fetch(`${url}/quick`).then((r) => r.status);
    const stuck = fetch(`${url}/stuck`).then(
      (r) => r.status,
      () => 'cut',
    );
    while (entered < 2) await new Promise((r) => setTimeout(r, 10));

    const started = Date.now();
    const closing = closeHttpServer(app, 800);
    await new Promise((r) => setTimeout(r, 50));
    await expect(fetch(`${url}/quick`)).rejects.toThrow();

    expect(await quick).toBe(200);
    await closing;
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(700);
    expect(took).toBeLessThan(5000);
    expect(await stuck).toBe('cut');
  });
});

describe('runServer with a launcher', () => {
  it(`stops when its launcher dies, even SIGKILLed, when started with ${STOP_WITH_PARENT_ENV}=stdin; without it, runs on`, async () => {
    const parent = spawn(process.execPath, [path.join(__dirname, 'fixtures', 'parent-of-servers.cjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    parent.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const waitFor = async (what: () => boolean, label: string, ms = 20_000) => {
      const deadline = Date.now() + ms;
      while (!what()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}; output so far:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await waitFor(() => output.includes('LISTENING watching') && output.includes('LISTENING not-watching'), 'both servers to listen');
    const pids = JSON.parse(/PIDS (\{.*\})/.exec(output)![1]!) as { watching: number; 'not-watching': number };
    try {
      parent.kill('SIGKILL');
      await waitFor(() => !alive(pids.watching), 'the watching server to exit');
      // Its own graceful shutdown, not a signal: it said why and that it stopped.
      await waitFor(() => /"signal":"parent gone"/.test(output) && /"msg":"stopped"/.test(output), 'its shutdown log');
      await new Promise((r) => setTimeout(r, 500));
      expect(alive(pids['not-watching'])).toBe(true);
    } finally {
      for (const pid of Object.values(pids)) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 30_000);
});
