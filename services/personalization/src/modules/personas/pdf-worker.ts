// Runs in a worker thread: builds one Persona PDF per message, so PDF work
// never blocks an HTTP event loop (DESIGN §2, §8).
import { parentPort } from 'node:worker_threads';
import { buildPersonaPdf, type PersonaPdfInput } from '../pdf/build-persona-pdf';

parentPort?.on('message', async (job: { id: number; input: PersonaPdfInput }) => {
  try {
    const pdf = await buildPersonaPdf(job.input);
    parentPort!.postMessage({ id: job.id, ok: true, bytes: pdf.bytes, pages: pdf.pages }, [pdf.bytes.buffer as ArrayBuffer]);
  } catch (err) {
    parentPort!.postMessage({ id: job.id, ok: false, name: (err as Error).name, message: (err as Error).message });
  }
});
