// The build pool: makes a Persona (its PDF and EPUB, a printed copy's print files: build-persona.ts) and
// dedication previews on a small pool of worker threads. Where the worker script cannot run (TypeScript
// sources under jest) it builds in-thread.
//
// Why our own pool rather than piscina: the same pool on piscina 4.9 (fixed
// threads, a port per job for its log lines) measured, with the `latency`
// bench group (paid → ready at 20 orders/s for 60 s, distributed), p50
// 53–159 ms and p99 1158–2036 ms over three runs, against p50 52–156 ms and
// p99 1028–1219 ms for this one over two runs taken between them on the same
// machine (2026-11-24, 2 cores). It did not keep the measured speed, and this
// file is small: one queue, idle workers, a replacement for a worker that dies.
// A worker's log lines come back to the main thread and are written through
// the job's logger, so they carry the order's correlation id.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { DEFAULT_PDF_CACHE_BYTES, setPersonaPdfCacheLimit, UnreadableSourceError } from '../pdf-engine/build-persona-pdf';
import { buildPersona, type PersonaBuild, type PersonaBuildInput, type PrintFiles } from './build-persona';
import { dedicationPreview, type PreviewInput } from '../pdf-engine/dedication-preview';
import type { WarmUp } from './warm-up';

/** pino-compatible; the job's logger (bound to its correlation id). */
export interface BuildJobLogger {
  info(o: object, msg?: string): void;
  debug(o: object, msg?: string): void;
  warn(o: object, msg?: string): void;
}

export interface BuildJobOptions {
  log?: BuildJobLogger;
}

export interface BuildPool {
  readonly kind: 'workers' | 'inline';
  build(input: PersonaBuildInput, options?: BuildJobOptions): Promise<PersonaBuild>;
  /**
   * A dedication page's preview image; taken before any Persona waiting (someone is typing). One
   * whose signal aborts before a worker takes it is dropped (the buyer has typed on).
   */
  preview(input: PreviewInput, signal?: AbortSignal): Promise<Uint8Array>;
  /** Jobs not started are refused; builds under way are stopped (their messages are handed back by then). */
  close(): Promise<void>;
  /** Settles once its threads have warmed up (warm-up.ts), at most READY_WAIT_MS after it was made; absent: ready at once. */
  ready?(): Promise<void>;
}

/** The longest a pool's readiness waits for its threads' warm-up (a slow machine still starts). */
export const READY_WAIT_MS = 15_000;

/** The pool closed under a job (shutdown): not the Persona's fault, so never counted as a failed attempt. */
export class BuildPoolClosedError extends Error {
  override readonly name = 'BuildPoolClosedError';
  constructor() {
    super('the PDF pool is closed');
  }
}

/** What a worker says about one job: a log line, or its result. */
export type WorkerMessage =
  | { kind: 'warm' }
  | { kind: 'log'; id: number; level: 'info' | 'debug' | 'warn'; msg: string; fields: Record<string, unknown> }
  | { kind: 'result'; id: number; ok: true; bytes: Uint8Array; pages: number; epub?: Uint8Array | null; print?: PrintFiles | null }
  | { kind: 'result'; id: number; ok: false; name: string; message: string };

export function inlineBuildPool(): BuildPool {
  return {
    kind: 'inline',
    async build(input, options = {}) {
      const started = Date.now();
      options.log?.debug({ pdfWorker: 'inline' }, 'pdf build started');
      const built = await buildPersona(input);
      options.log?.info(
        { pdfWorker: 'inline', pages: built.pages, bytes: built.bytes.length, epub: built.epub?.length ?? null, ms: Date.now() - started },
        'pdf built',
      );
      return built;
    },
    preview: (input, signal) => (signal?.aborted ? Promise.reject(new PreviewAbandonedError()) : dedicationPreview(input)),
    close: async () => undefined,
  };
}

/** What the pool hands a worker: a Persona to build, or a preview to draw. */
export type BuildJobInput = { kind: 'persona'; input: PersonaBuildInput } | { kind: 'preview'; input: PreviewInput };

interface Job {
  id: number;
  work: BuildJobInput;
  log?: BuildJobLogger;
  resolve: (built: PersonaBuild) => void;
  reject: (err: Error) => void;
}

function revive(name: string, message: string): Error {
  if (name === 'UnreadableSourceError') return new UnreadableSourceError(message);
  const err = new Error(message);
  err.name = name;
  return err;
}

/** A preview nobody waits for any more, dropped before it was drawn. */
export class PreviewAbandonedError extends Error {
  override readonly name = 'PreviewAbandonedError';
  constructor() {
    super('the preview was abandoned before it was drawn');
  }
}

/** What each worker is started with. */
export interface BuildWorkerData {
  /** Its prepared-book cache's bound (PERSONA_PDF_CACHE_MB). */
  cacheBytes: number;
  /** What it warms up for once started (warm-up.ts), if anything. */
  warm?: WarmUp;
  /** Its CPU niceness (thread-priority.ts of @persona/untrusted). */
  niceness: number;
}

/**
 * The Persona threads' niceness: a Persona is made after the payment, nobody waits on a page for
 * it, and on one machine its 100 ms of CPU at a time held back the answers to Razorpay's webhooks
 * (the `webhooks` bench). The previews' pool, which someone does wait for, keeps the process's own.
 */
export const PERSONA_THREAD_NICENESS = 10;

export interface BuildPoolOptions {
  /** Worker threads (PDF_WORKERS). */
  size: number;
  /** Each worker's prepared-book cache (PERSONA_PDF_CACHE_MB). */
  cacheBytes?: number;
  /** What each worker warms up for as it starts (a replacement too): the pool's work. */
  warm?: WarmUp;
  /** Its threads' CPU niceness (default 0: the process's own). */
  niceness?: number;
}

export function workerBuildPool(
  { size, cacheBytes = DEFAULT_PDF_CACHE_BYTES, warm, niceness = 0 }: BuildPoolOptions,
  script = path.join(__dirname, 'build-worker.js'),
): BuildPool {
  const workerData: BuildWorkerData = { cacheBytes, warm, niceness };
  const queue: Job[] = [];
  // Previews first: someone is waiting on the page for them.
  const previews: Job[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job>();
  let nextId = 1;
  let closed = false;

  // Each first thread's warm-up: its end (or the thread's) counts it ready.
  const warming: Array<Promise<void>> = [];
  const spawn = (first = false) => {
    const worker = new Worker(script, { workerData });
    if (first && warm) {
      warming.push(
        new Promise<void>((resolve) => {
          worker.on('message', (msg: WorkerMessage) => msg.kind === 'warm' && resolve());
          worker.once('exit', () => resolve());
        }),
      );
    }
    worker.on('message', (msg: WorkerMessage) => {
      if (msg.kind === 'warm') return;
      const job = busy.get(worker);
      if (msg.kind === 'log') {
        if (job && job.id === msg.id) job.log?.[msg.level]({ ...msg.fields, pdfWorker: worker.threadId }, msg.msg);
        return;
      }
      busy.delete(worker);
      if (job) {
        if (msg.ok)
          job.resolve({
            bytes: new Uint8Array(msg.bytes),
            pages: msg.pages,
            epub: msg.epub ? new Uint8Array(msg.epub) : null,
            print: msg.print ? { ...msg.print, interior: new Uint8Array(msg.print.interior), cover: new Uint8Array(msg.print.cover) } : null,
          });
        else job.reject(revive(msg.name ?? 'Error', msg.message ?? 'PDF build failed'));
      }
      idle.push(worker);
      pump();
    });
    worker.on('error', (err) => {
      const job = busy.get(worker);
      busy.delete(worker);
      job?.reject(closed ? new BuildPoolClosedError() : err);
    });
    worker.on('exit', () => {
      const job = busy.get(worker);
      busy.delete(worker);
      job?.reject(closed ? new BuildPoolClosedError() : new Error('the PDF worker stopped'));
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      if (!closed) {
        spawn();
        pump();
      }
    });
    idle.push(worker);
  };

  const pump = () => {
    while ((previews.length > 0 || queue.length > 0) && idle.length > 0) {
      const worker = idle.pop()!;
      const job = (previews.length > 0 ? previews.shift() : queue.shift())!;
      busy.set(worker, job);
      worker.postMessage({ id: job.id, work: job.work });
    }
  };

  for (let i = 0; i < size; i += 1) spawn(true);
  const made = Date.now();

  return {
    kind: 'workers',
    build(input, options = {}) {
      if (closed) return Promise.reject(new BuildPoolClosedError());
      return new Promise<PersonaBuild>((resolve, reject) => {
        queue.push({ id: nextId++, work: { kind: 'persona', input }, log: options.log, resolve, reject });
        pump();
      });
    },
    preview(input, signal) {
      if (closed) return Promise.reject(new BuildPoolClosedError());
      if (signal?.aborted) return Promise.reject(new PreviewAbandonedError());
      return new Promise<Uint8Array>((resolve, reject) => {
        const job: Job = { id: nextId++, work: { kind: 'preview', input }, resolve: (result) => resolve(result.bytes), reject };
        previews.push(job);
        signal?.addEventListener(
          'abort',
          () => {
            const at = previews.indexOf(job);
            if (at < 0) return; // a worker has it already
            previews.splice(at, 1);
            reject(new PreviewAbandonedError());
          },
          { once: true },
        );
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of [...queue.splice(0), ...previews.splice(0)]) job.reject(new BuildPoolClosedError());
      await Promise.all([...idle, ...busy.keys()].map((w) => w.terminate()));
    },
    async ready() {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, made + READY_WAIT_MS - Date.now()))));
      await Promise.race([Promise.all(warming), late]);
      clearTimeout(timer);
    },
  };
}

/** Worker threads when running compiled JavaScript; in-thread under the TypeScript test runner. */
export function defaultBuildPool(pool: BuildPoolOptions): BuildPool {
  const script = path.join(__dirname, 'build-worker.js');
  if (existsSync(script)) return workerBuildPool(pool, script);
  setPersonaPdfCacheLimit(pool.cacheBytes ?? DEFAULT_PDF_CACHE_BYTES);
  return inlineBuildPool();
}
