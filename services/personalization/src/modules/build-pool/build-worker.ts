// Runs in a worker thread: builds one Persona (or a dedication preview) per message, so that
// work never blocks an HTTP event loop (DESIGN §2, §8). Its log lines go to the
// main thread, which writes them with the job's correlation id.
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '@persona/untrusted/thread-priority';
import { setPersonaPdfCacheLimit } from '../pdf-engine/build-persona-pdf';
import { buildPersona, type PersonaBuildInput } from './build-persona';
import { dedicationPreview } from '../pdf-engine/dedication-preview';
import type { BuildJobInput, BuildWorkerData, WorkerMessage } from './build-pool';
import { warmUp } from './warm-up';

const data = workerData as BuildWorkerData;
setPersonaPdfCacheLimit(data.cacheBytes);
if (data.niceness > 0) lowerThreadPriority(data.niceness);
const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);

// Before anybody waits: a job that comes meanwhile is taken between its steps. Should it fail, so
// would the jobs, and they say why; the thread counts as ready either way.
if (data.warm)
  warmUp(data.warm)
    .catch(() => undefined)
    .finally(() => post({ kind: 'warm' }));

parentPort?.on('message', (job: { id: number; work: BuildJobInput }) => {
  if (job.work.kind === 'persona') void build({ id: job.id, input: job.work.input });
  else void preview(job.id, job.work.input);
});

/** Draws one preview; its image is posted back as the result's bytes. */
async function preview(id: number, input: Parameters<typeof dedicationPreview>[0]): Promise<void> {
  try {
    const image = await dedicationPreview(input);
    post({ kind: 'result', id, ok: true, bytes: image, pages: 1 }, [image.buffer as ArrayBuffer]);
  } catch (err) {
    post({ kind: 'result', id, ok: false, name: (err as Error).name, message: (err as Error).message });
  }
}

/** Builds one job; every outcome, a failure included, is posted back (nothing rejects). */
async function build(job: { id: number; input: PersonaBuildInput }): Promise<void> {
  const started = Date.now();
  const source = job.input.source.kind;
  post({ kind: 'log', id: job.id, level: 'debug', msg: 'pdf build started', fields: { personaId: job.input.record.personaId, source } });
  try {
    const built = await buildPersona(job.input);
    post({
      kind: 'log',
      id: job.id,
      level: 'info',
      msg: 'pdf built',
      fields: {
        personaId: job.input.record.personaId,
        source,
        pages: built.pages,
        bytes: built.bytes.length,
        epub: built.epub?.length ?? null,
        ms: Date.now() - started,
      },
    });
    const transfer = [
      built.bytes.buffer as ArrayBuffer,
      ...(built.epub ? [built.epub.buffer as ArrayBuffer] : []),
      ...(built.print ? [built.print.interior.buffer as ArrayBuffer, built.print.cover.buffer as ArrayBuffer] : []),
    ];
    post({ kind: 'result', id: job.id, ok: true, bytes: built.bytes, pages: built.pages, epub: built.epub, print: built.print }, transfer);
  } catch (err) {
    post({
      kind: 'log',
      id: job.id,
      level: 'warn',
      msg: 'pdf build failed',
      fields: { personaId: job.input.record.personaId, source, ms: Date.now() - started, err: (err as Error).message },
    });
    post({ kind: 'result', id: job.id, ok: false, name: (err as Error).name, message: (err as Error).message });
  }
}
