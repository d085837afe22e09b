// Runs the reading of untrusted files on worker threads, so no upload can
// stall an HTTP event loop (DESIGN §7, §8): each thread has a capped V8 heap
// (`resourceLimits`), each job a time limit counted from when a thread takes
// it; a thread that runs out of either is stopped and replaced, as is one whose
// job was refused over budget (whatever it allocated leaves with it). Jobs wait
// in one bounded queue; past it the pool answers busy (503) at once.
//
// Why our own pool rather than piscina: piscina's abort signal counts a job's
// time in the queue as well, so under a burst of honest uploads the ones that
// waited would be refused as too slow; here the clock starts when a thread
// starts the job. And the pool must tell a heap overrun and a time overrun
// apart, as refusals the client reads (422, naming the limit), from a bug.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { FileRefusedError } from './budget';

/** What a task module exports: `tasks`, each taking one structured-clonable input. */
export type TaskTable = Record<string, (input: never) => unknown>;

export interface UntrustedPoolOptions {
  /** The compiled module every thread loads; it exports `tasks` (a TaskTable). */
  module: string;
  /** Threads reading files at once. */
  threads: number;
  /** Each thread's V8 heap, MB (its old generation; buffers are bounded by the readers' budgets). */
  heapMb: number;
  /** How long one job may run once a thread has taken it, ms. */
  timeoutMs: number;
  /** Jobs that may wait for a thread; more are refused as busy. */
  maxQueue: number;
  /**
   * How long a job may wait for a thread before it is refused as busy, ms (default 20 s: under the
   * gateway's 30 s wait for an answer's headers, so a flood is told to come back, not timed out).
   */
  maxWaitMs?: number;
  /**
   * The threads' CPU niceness (0–19; Linux gives each thread its own). Work nobody is waiting on
   * (an invoice drawn after a payment) runs at 10, so that on a busy machine the event loops
   * answering requests are scheduled first. Unset: the process's own.
   */
  niceness?: number;
}

export interface RunOptions {
  /** Buffers moved to the thread rather than copied (the caller gives them up). */
  transfer?: ArrayBuffer[];
  /** How the file is named in refusals ("This PDF"). */
  file?: string;
  /** A job still waiting when this aborts is dropped (its request went away). */
  signal?: AbortSignal;
}

export interface UntrustedPool<T extends TaskTable> {
  run<K extends keyof T & string>(task: K, input: Parameters<T[K]>[0], options?: RunOptions): Promise<Awaited<ReturnType<T[K]>>>;
  /** Threads, jobs running and waiting, and threads replaced since the start. */
  stats(): { threads: number; running: number; waiting: number; replaced: number };
  close(): Promise<void>;
}

/** Every thread is busy and the queue is full: answered 503 with Retry-After. */
export class PoolBusyError extends Error {
  override readonly name = 'PoolBusyError';
  readonly statusCode = 503;
  readonly expose = true;
  readonly code = 'FILE_CHECKS_BUSY';
  /** Sent with the answer (Fastify's convention for an error's headers). */
  readonly headers: Record<string, string>;
  constructor(readonly retryAfterSeconds: number) {
    super('The shop is checking many files right now: please send this one again in a few seconds');
    this.headers = { 'retry-after': String(retryAfterSeconds) };
  }
}

/** The pool was closed under a job (shutdown). */
export class PoolClosedError extends Error {
  override readonly name = 'PoolClosedError';
  readonly statusCode = 503;
  readonly expose = true;
  readonly code = 'SHUTTING_DOWN';
  constructor() {
    super('The shop is restarting: please send the file again in a moment');
  }
}

/** A job's failure as it crosses from the thread: a refusal keeps its status and code. */
export interface SerializedError {
  name: string;
  message: string;
  statusCode?: number;
  code?: string;
}

export type WorkerReply = { ready: true } | { id: number; ok: true; result: unknown } | { id: number; ok: false; error: SerializedError };

interface Job {
  id: number;
  task: string;
  input: unknown;
  transfer: ArrayBuffer[];
  file: string;
  resolve: (value: never) => void;
  reject: (err: Error) => void;
  signal?: AbortSignal;
  /** Refuses it as busy when it waited too long (cleared once a thread takes it). */
  waitTimer?: NodeJS.Timeout;
}

interface Thread {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  /** Set when the pool stops this thread itself (time, memory, a refused job): its exit is expected. */
  retiring: boolean;
  /** Its task module is loaded: a job's clock starts only on a thread that can start it. */
  ready: boolean;
}

/** The pool's thread script: beside this file when compiled, in dist when this runs from its TypeScript source. */
function workerScript(): string {
  const beside = path.join(__dirname, 'untrusted-worker.js');
  if (existsSync(beside)) return beside;
  const built = path.join(__dirname, '..', 'dist', 'untrusted-worker.js');
  if (existsSync(built)) return built;
  throw new Error(`the untrusted-file worker is not built (${built} is missing): run "npm run build"`);
}

/**
 * The compiled JavaScript of a task module given by its own path: itself when it runs compiled,
 * else the copy `tsc` wrote (`<workspace>/dist/<same path>` or, for a workspace built from
 * `src` alone, `<workspace>/dist/<path below src>`). Throws, naming the file, when none is built.
 */
export function compiledModule(file: string): string {
  if (file.endsWith('.js')) return file;
  const js = file.replace(/\.ts$/, '.js');
  const srcAt = js.lastIndexOf(`${path.sep}src${path.sep}`);
  const candidates = srcAt < 0 ? [] : [js.slice(0, srcAt) + `${path.sep}dist` + js.slice(srcAt), js.slice(0, srcAt) + `${path.sep}dist` + js.slice(srcAt + 4)];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`${path.basename(js)} is not built (looked for ${candidates.join(', ') || js}): run "npm run build"`);
  return found;
}

const DEFAULT_MAX_WAIT_MS = 20_000;

/** FILE_CHECK_*'s defaults (settings.ts), for a pool started without settings (tests, benchmarks). */
export const DEFAULT_POOL_OPTIONS: Omit<UntrustedPoolOptions, 'module'> = { threads: 1, heapMb: 256, timeoutMs: 10_000, maxQueue: 32 };

/**
 * A service's pool: the one it was given (tests), or a new one on its task module (its TypeScript
 * or compiled path: `compiledModule`) with the given options over the defaults.
 */
export function servicePool<T extends TaskTable>(
  taskModule: string,
  given?: Partial<Omit<UntrustedPoolOptions, 'module'>> | UntrustedPool<T>,
): UntrustedPool<T> {
  if (given && 'run' in given) return given;
  return createUntrustedPool<T>({ module: compiledModule(taskModule), ...DEFAULT_POOL_OPTIONS, ...given });
}

function revive(error: SerializedError): Error {
  if (error.name === 'FileRefusedError' && (error.statusCode === 413 || error.statusCode === 422)) {
    return new FileRefusedError(error.statusCode, error.message, error.code ?? 'FILE_REFUSED');
  }
  const err = new Error(error.message);
  err.name = error.name;
  return err;
}

export function createUntrustedPool<T extends TaskTable>(options: UntrustedPoolOptions): UntrustedPool<T> {
  const script = workerScript();
  const threads: Thread[] = [];
  const waiting: Job[] = [];
  let nextId = 1;
  let replaced = 0;
  let closed = false;
  // About how long the queue ahead takes to clear: every thread's time limit, once.
  const retryAfterSeconds = Math.max(1, Math.ceil(options.timeoutMs / 1000));

  const spawn = (): Thread => {
    const worker = new Worker(script, {
      workerData: { module: options.module, niceness: options.niceness },
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    const thread: Thread = { worker, job: null, timer: null, retiring: false, ready: false };
    worker.on('message', (reply: WorkerReply) => {
      if ('ready' in reply) {
        thread.ready = true;
        pump();
        return;
      }
      const job = thread.job;
      if (!job || job.id !== reply.id) return;
      finish(thread);
      if (reply.ok) {
        job.resolve(reply.result as never);
        pump();
        return;
      }
      const err = revive(reply.error);
      // A refused file may have filled the thread's heap: the thread goes with it.
      if (err instanceof FileRefusedError) retire(thread);
      job.reject(err);
      pump();
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const job = thread.job;
      finish(thread);
      // The thread is ending: no job may be given to it while it does.
      thread.retiring = true;
      replace(thread);
      if (!job) return;
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        job.reject(
          new FileRefusedError(422, `${job.file} needs more than ${options.heapMb} MB of memory to read, more than this shop gives one file`, 'MEMORY_LIMIT'),
        );
      } else {
        job.reject(closed ? new PoolClosedError() : err);
      }
    });
    worker.on('exit', () => {
      const job = thread.job;
      finish(thread);
      job?.reject(closed ? new PoolClosedError() : new Error('the file-reading thread stopped'));
      // A thread the pool retired was replaced already; one that died on its own is replaced now.
      if (!thread.retiring) replace(thread);
    });
    // An idle thread never keeps the process alive (a busy one does: see pump).
    worker.unref();
    return thread;
  };

  const finish = (thread: Thread) => {
    if (thread.timer) clearTimeout(thread.timer);
    if (thread.job) thread.worker.unref();
    thread.timer = null;
    thread.job = null;
  };

  /** Puts a new thread in a gone one's place (at once: the next job need not wait for the old one's exit). */
  const replace = (thread: Thread) => {
    const at = threads.indexOf(thread);
    if (at < 0 || closed) return;
    replaced += 1;
    threads[at] = spawn();
    pump();
  };

  /** Stops a thread and replaces it. */
  const retire = (thread: Thread) => {
    if (thread.retiring) return;
    thread.retiring = true;
    void thread.worker.terminate();
    replace(thread);
  };

  const pump = () => {
    for (const thread of threads) {
      if (waiting.length === 0) return;
      if (thread.job || thread.retiring || !thread.ready) continue;
      const job = waiting.shift()!;
      clearTimeout(job.waitTimer);
      thread.job = job;
      thread.timer = setTimeout(() => {
        if (thread.job !== job) return;
        finish(thread);
        retire(thread);
        job.reject(
          new FileRefusedError(
            422,
            `${job.file} took longer than ${Math.round(options.timeoutMs / 100) / 10} s to read, more than this shop gives one file`,
            'TIME_LIMIT',
          ),
        );
      }, options.timeoutMs);
      thread.worker.ref();
      thread.worker.postMessage({ id: job.id, task: job.task, input: job.input }, job.transfer);
    }
  };

  for (let i = 0; i < Math.max(1, options.threads); i += 1) threads.push(spawn());

  return {
    run(task, input, runOptions = {}) {
      if (closed) return Promise.reject(new PoolClosedError());
      if (runOptions.signal?.aborted) return Promise.reject(runOptions.signal.reason as Error);
      // Every free thread takes one of the jobs waiting; past those, `maxQueue` may wait.
      const free = threads.filter((t) => !t.job && !t.retiring).length;
      if (waiting.length >= free + options.maxQueue) {
        return Promise.reject(new PoolBusyError(retryAfterSeconds));
      }
      return new Promise((resolve, reject) => {
        const job: Job = {
          id: nextId++,
          task,
          input,
          transfer: runOptions.transfer ?? [],
          file: runOptions.file ?? 'This file',
          resolve: resolve as (value: never) => void,
          reject,
          signal: runOptions.signal,
        };
        const drop = (reason: Error) => {
          const at = waiting.indexOf(job);
          if (at < 0) return false; // a thread has it: it runs to its end or its time limit
          waiting.splice(at, 1);
          clearTimeout(job.waitTimer);
          reject(reason);
          return true;
        };
        runOptions.signal?.addEventListener('abort', () => drop(runOptions.signal!.reason as Error), { once: true });
        waiting.push(job);
        pump();
        if (waiting.includes(job)) {
          job.waitTimer = setTimeout(() => drop(new PoolBusyError(retryAfterSeconds)), options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS);
          job.waitTimer.unref();
        }
      });
    },
    stats: () => ({ threads: threads.length, running: threads.filter((t) => t.job).length, waiting: waiting.length, replaced }),
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) {
        clearTimeout(job.waitTimer);
        job.reject(new PoolClosedError());
      }
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}
