// Builds Persona PDFs on a small pool of worker threads. Where the worker
// script cannot run (TypeScript sources under jest) it builds in-thread.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { buildPersonaPdf, UnreadableSourceError, type PersonaPdf, type PersonaPdfInput } from '../pdf/build-persona-pdf';

export interface PdfBuilder {
  readonly kind: 'workers' | 'inline';
  build(input: PersonaPdfInput): Promise<PersonaPdf>;
  close(): Promise<void>;
}

export function inlinePdfBuilder(): PdfBuilder {
  return { kind: 'inline', build: buildPersonaPdf, close: async () => undefined };
}

interface Job {
  id: number;
  input: PersonaPdfInput;
  resolve: (pdf: PersonaPdf) => void;
  reject: (err: Error) => void;
}

function revive(name: string, message: string): Error {
  if (name === 'UnreadableSourceError') return new UnreadableSourceError(message);
  const err = new Error(message);
  err.name = name;
  return err;
}

export function workerPdfBuilder(size: number, script = path.join(__dirname, 'pdf-worker.js')): PdfBuilder {
  const queue: Job[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job>();
  let nextId = 1;
  let closed = false;

  const spawn = () => {
    const worker = new Worker(script);
    worker.on('message', (msg: { id: number; ok: boolean; bytes?: Uint8Array; pages?: number; name?: string; message?: string }) => {
      const job = busy.get(worker);
      busy.delete(worker);
      if (job) {
        if (msg.ok) job.resolve({ bytes: new Uint8Array(msg.bytes!), pages: msg.pages! });
        else job.reject(revive(msg.name ?? 'Error', msg.message ?? 'PDF build failed'));
      }
      idle.push(worker);
      pump();
    });
    worker.on('error', (err) => {
      const job = busy.get(worker);
      busy.delete(worker);
      job?.reject(err);
    });
    worker.on('exit', () => {
      const job = busy.get(worker);
      busy.delete(worker);
      job?.reject(new Error('the PDF worker stopped'));
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
    while (queue.length > 0 && idle.length > 0) {
      const worker = idle.pop()!;
      const job = queue.shift()!;
      busy.set(worker, job);
      worker.postMessage({ id: job.id, input: job.input });
    }
  };

  for (let i = 0; i < size; i += 1) spawn();

  return {
    kind: 'workers',
    build(input) {
      if (closed) return Promise.reject(new Error('the PDF builder is closed'));
      return new Promise<PersonaPdf>((resolve, reject) => {
        queue.push({ id: nextId++, input, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('the PDF builder is closed'));
      await Promise.all([...idle, ...busy.keys()].map((w) => w.terminate()));
    },
  };
}

/** Worker threads when running compiled JavaScript; in-thread under the TypeScript test runner. */
export function defaultPdfBuilder(size = Math.max(1, Math.min(4, os.cpus().length - 1))): PdfBuilder {
  const script = path.join(__dirname, 'pdf-worker.js');
  return existsSync(script) ? workerPdfBuilder(size, script) : inlinePdfBuilder();
}
