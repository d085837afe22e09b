// The untrusted-file pool on real threads: results and refusals cross back with their status
// and code; a job past its time limit or its heap cap is refused and its thread replaced; a
// refused file's thread is replaced too; a full queue answers busy at once; the clock starts
// when a thread takes the job, not while it waits; closing refuses what waits.
import { getPriority } from 'node:os';
import path from 'node:path';
import { FileRefusedError } from '../src/budget';
import { compiledModule, createUntrustedPool, PoolBusyError, PoolClosedError, type UntrustedPool } from '../src/worker-pool';
import { flateBombPdf, plainPdf } from '@persona/test-kit';

type Tasks = {
  echo: (input: unknown) => unknown;
  niceness: () => number;
  length: (bytes: Uint8Array) => number;
  spin: (ms: number) => number;
  hog: (mb: number) => number;
  gauge: (bytes: Uint8Array) => { pages: number };
  fail: (message: string) => never;
  strayRejection: (value: string) => Promise<string>;
};

const MODULE = path.join(__dirname, 'fixtures/test-tasks.js');
const pools: Array<UntrustedPool<Tasks>> = [];
function pool(options: Partial<Parameters<typeof createUntrustedPool>[0]> = {}) {
  const p = createUntrustedPool<Tasks>({ module: MODULE, threads: 1, heapMb: 64, timeoutMs: 5000, maxQueue: 8, ...options });
  pools.push(p);
  return p;
}
afterAll(() => Promise.all(pools.map((p) => p.close())));

describe('the untrusted-file pool', () => {
  it('runs a task on a thread and brings its result back, moving the bytes it is given to move', async () => {
    const p = pool();
    expect(await p.run('echo', { a: [1, 2, 3] })).toEqual({ a: [1, 2, 3] });
    const bytes = new Uint8Array(1000);
    expect(await p.run('length', bytes, { transfer: [bytes.buffer] })).toBe(1000);
    expect(bytes.byteLength).toBe(0); // moved, not copied
  });

  it('runs background work at the niceness asked for, on its threads only', async () => {
    const own = getPriority();
    expect(await pool().run('niceness', undefined)).toBe(own);
    // Lowering a priority is always permitted; the process (this thread) keeps its own.
    expect(await pool({ niceness: 10 }).run('niceness', undefined)).toBe(Math.max(10, own));
    expect(getPriority()).toBe(own);
  });

  it('keeps a refusal its status, code and words, and replaces the thread that refused', async () => {
    // The bomb is refused for its size; a time limit generous enough for a busy machine keeps it that.
    const p = pool({ timeoutMs: 30_000 });
    const before = p.stats().replaced;
    const refused = await p.run('gauge', flateBombPdf(1024 * 1024), { file: 'This PDF' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FileRefusedError);
    expect(refused).toMatchObject({
      statusCode: 413,
      code: 'UNPACKS_TOO_LARGE',
      message: expect.stringMatching(/^This PDF would have more than 256 MB in all/),
    });
    await waitFor(() => p.stats().replaced === before + 1);
    expect(await p.run('gauge', plainPdf())).toMatchObject({ pages: 1 });
  });

  it('passes other errors on by name, without replacing the thread', async () => {
    const p = pool();
    await expect(p.run('fail', 'a bug')).rejects.toMatchObject({ name: 'TypeError', message: 'a bug' });
    expect(p.stats().replaced).toBe(0);
  });

  it('answers a job whose library left a promise of its own rejected and unhandled, and keeps the thread', async () => {
    const p = pool();
    expect(await p.run('strayRejection', 'read')).toBe('read');
    expect(await p.run('echo', 'next')).toBe('next');
    expect(p.stats().replaced).toBe(0);
  });

  it('refuses a job past its time limit, stops its thread and serves the next job on a new one', async () => {
    const p = pool({ timeoutMs: 300 });
    const refused = await p.run('spin', 60_000, { file: 'This EPUB' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      name: 'FileRefusedError',
      statusCode: 422,
      code: 'TIME_LIMIT',
      message: 'This EPUB took longer than 0.3 s to read, more than this shop gives one file',
    });
    expect(await p.run('echo', 'after')).toBe('after');
    expect(p.stats().replaced).toBe(1);
  });

  it('refuses a job that outgrows the heap cap and replaces the thread', async () => {
    const p = pool({ heapMb: 32 });
    const refused = await p.run('hog', 512, { file: 'This PDF' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      statusCode: 422,
      code: 'MEMORY_LIMIT',
      message: 'This PDF needs more than 32 MB of memory to read, more than this shop gives one file',
    });
    expect(await p.run('echo', 'still here')).toBe('still here');
  }, 30_000);

  it('counts the time limit from when a thread takes the job, not while it waits', async () => {
    const p = pool({ timeoutMs: 1000 });
    // Three jobs of 600 ms each on one thread: the last waits 1.2 s, longer than the limit, and still runs.
    const results = await Promise.all([p.run('spin', 600), p.run('spin', 600), p.run('spin', 600)]);
    expect(results).toEqual([600, 600, 600]);
  }, 20_000);

  it('answers busy at once when every thread is taken and the queue is full, with a Retry-After', async () => {
    const p = pool({ maxQueue: 1, timeoutMs: 4000 });
    const running = p.run('spin', 400);
    const waiting = p.run('spin', 10);
    const busy = await p.run('echo', 'one too many').catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(PoolBusyError);
    expect(busy).toMatchObject({ statusCode: 503, code: 'FILE_CHECKS_BUSY', headers: { 'retry-after': '4' } });
    expect(await Promise.all([running, waiting])).toEqual([400, 10]);
  });

  it('refuses as busy a job that waited past its longest wait, before the gateway would time out', async () => {
    const p = pool({ maxWaitMs: 200, timeoutMs: 5000 });
    // The thread started first: on a busy machine starting one may itself take longer than 200 ms
    // (a first job refused as busy meanwhile), so the warm-up asks until one is answered.
    for (let tries = 0; (await p.run('echo', 'warm').catch((e: unknown) => e)) instanceof PoolBusyError; tries += 1) {
      if (tries === 50) throw new Error('the pool never started its thread');
      await new Promise((r) => setTimeout(r, 100));
    }
    const running = p.run('spin', 600);
    await waitFor(() => p.stats().running === 1);
    const waited = await p.run('echo', 'too late').catch((e: unknown) => e);
    expect(waited).toBeInstanceOf(PoolBusyError);
    expect(waited).toMatchObject({ statusCode: 503, headers: { 'retry-after': '5' } });
    expect(p.stats().waiting).toBe(0);
    expect(await running).toBe(600);
  });

  it('drops a waiting job whose request went away', async () => {
    const p = pool();
    const running = p.run('spin', 300);
    await waitFor(() => p.stats().running === 1);
    const gone = new AbortController();
    const dropped = p.run('echo', 'never run', { signal: gone.signal });
    gone.abort(new Error('the client closed the request'));
    await expect(dropped).rejects.toThrow('the client closed the request');
    expect(p.stats().waiting).toBe(0);
    await running;
  });

  it('refuses what waits, and anything new, once closed', async () => {
    const p = pool();
    const running = p.run('spin', 300);
    const waiting = p.run('echo', 'late');
    const closing = p.close();
    await expect(waiting).rejects.toBeInstanceOf(PoolClosedError);
    await expect(running).rejects.toBeInstanceOf(PoolClosedError);
    await closing;
    await expect(p.run('echo', 'after close')).rejects.toBeInstanceOf(PoolClosedError);
  });

  it('finds the compiled copy of a task module given by its TypeScript path, and says when there is none', () => {
    expect(compiledModule(path.join(__dirname, '../src/pdf-gauge.ts'))).toBe(path.join(__dirname, '../dist/pdf-gauge.js'));
    expect(() => compiledModule(path.join(__dirname, '../src/nothing-here.ts'))).toThrow(/nothing-here\.js is not built .*run "npm run build"/);
  });
});

async function waitFor(condition: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
