// A thread of the untrusted-file pool (worker-pool.ts): loads the task module it was started
// with and runs one job at a time, posting back the result or the failure (a refusal with its
// status and code). The pool watches its time and memory and stops it when either runs out.
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from './thread-priority';
import type { SerializedError, TaskTable, WorkerReply } from './worker-pool';

const data = workerData as { module: string; niceness?: number };
// Background work yields the CPU to the threads answering requests (UntrustedPoolOptions.niceness).
if (data.niceness !== undefined) lowerThreadPriority(data.niceness);

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the module is named at run time by whoever starts the pool
const { tasks } = require(data.module) as { tasks: TaskTable };

function serialize(err: unknown): SerializedError {
  const e = err as Error & { statusCode?: number; code?: unknown };
  return {
    name: e?.name ?? 'Error',
    message: e?.message ?? String(err),
    statusCode: typeof e?.statusCode === 'number' ? e.statusCode : undefined,
    code: typeof e?.code === 'string' ? e.code : undefined,
  };
}

// A reader's library may leave a promise of its own rejected and unhandled: pdf.js prefetches the
// kids of a page tree (Catalog.getPageDict's pageDictCache) and never awaits those it no longer
// needs once the tree proves broken. The job's own answer (read, or refused with the library's
// error) is what counts; left alone, such a rejection would end the thread and fail the job with
// a stray error instead. Whatever else goes wrong is bounded by the pool's time and memory limits.
process.on('unhandledRejection', () => undefined);

parentPort!.postMessage({ ready: true } satisfies WorkerReply);

parentPort!.on('message', (job: { id: number; task: string; input: unknown }) => {
  const post = (reply: WorkerReply) => parentPort!.postMessage(reply);
  const run = tasks[job.task];
  if (!run) {
    post({ id: job.id, ok: false, error: { name: 'Error', message: `no task named ${job.task}` } });
    return;
  }
  Promise.resolve()
    .then(() => run(job.input as never))
    .then(
      (result) => post({ id: job.id, ok: true, result }),
      (err: unknown) => post({ id: job.id, ok: false, error: serialize(err) }),
    );
});
