// The build pool on real worker threads (the compiled worker script: the test task runs
// after the build): a Persona built off the main thread with its log lines brought back, the
// engine's own error class kept across the thread boundary, and no build taken once closed.
import path from 'node:path';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { UnreadableSourceError } from '../../../src/modules/pdf-engine/build-persona-pdf';
import { BuildPoolClosedError, PERSONA_THREAD_NICENESS, PreviewAbandonedError, workerBuildPool } from '../../../src/modules/build-pool/build-pool';
import { generateSigningKey } from '../../../src/modules/signing/persona-signature';
import type { PersonaPdfInput } from '../../../src/modules/pdf-engine/build-persona-pdf';
import { personaInput } from '../../fixtures/persona-input';

const script = path.resolve(__dirname, '../../../dist/src/modules/build-pool/build-worker.js');
const key = generateSigningKey();

function input(personaId: string, source: PersonaPdfInput['source']) {
  return personaInput(key, source, { personaId });
}

describe('the build pool', () => {
  beforeAll(() => {
    // The test task runs after the build (turbo.json); a missing script is a broken build, not a reason to skip.
    if (!existsSync(script)) throw new Error(`${script} is missing: build first (npm run build -w @persona/personalization)`);
  });

  it('builds on worker threads, brings back the log lines, keeps the error class, and refuses work once closed', async () => {
    const pool = workerBuildPool({ size: 2, cacheBytes: 8 * 1024 * 1024 }, script);
    try {
      const lines: string[] = [];
      const log = { info: (o: object, msg?: string) => void lines.push(`${msg} ${JSON.stringify(o)}`), debug: () => undefined, warn: () => undefined };
      const paragraphs = ['# Chapter One', ...Array.from({ length: 20 }, (_, i) => `Paragraph ${i + 1} of a quiet story about light.`)];
      const [a, b] = await Promise.all([
        pool.build(input('PRS-AAAA-BBBB-CCCC-DDDD', { kind: 'text', paragraphs }), { log }),
        pool.build(input('PRS-EEEE-FFFF-GGGG-HHHH', { kind: 'text', paragraphs }), { log }),
      ]);
      for (const pdf of [a, b]) {
        expect((await PDFDocument.load(pdf.bytes)).getPageCount()).toBe(pdf.pages);
      }
      expect(lines.filter((l) => l.startsWith('pdf built'))).toHaveLength(2);
      expect(lines[0]).toMatch(/"pdfWorker":\d+/);

      const broken = pool.build(input('PRS-IIII-JJJJ-KKKK-LLLL', { kind: 'pdf', bytes: new TextEncoder().encode('not a pdf') }));
      await expect(broken).rejects.toBeInstanceOf(UnreadableSourceError);
    } finally {
      await pool.close();
    }
    await expect(pool.build(input('PRS-MMMM-NNNN-PPPP-QQQQ', { kind: 'text', paragraphs: ['x'] }))).rejects.toBeInstanceOf(BuildPoolClosedError);
  }, 60_000);
});

describe('a pool that warms up', () => {
  it('says it is ready once its threads have warmed up, and builds and draws as any pool does', async () => {
    const personas = workerBuildPool({ size: 1, cacheBytes: 8 * 1024 * 1024, warm: 'personas' }, script);
    const previews = workerBuildPool({ size: 1, cacheBytes: 0, warm: 'previews' }, script);
    const cold = workerBuildPool({ size: 1, cacheBytes: 0 }, script);
    try {
      await Promise.all([personas.ready!(), previews.ready!(), cold.ready!()]);
      const pdf = await personas.build(input('PRS-AAAA-BBBB-CCCC-DDDD', { kind: 'text', paragraphs: ['# One', 'A paragraph.'] }));
      expect((await PDFDocument.load(pdf.bytes)).getPageCount()).toBe(pdf.pages);
      expect(pdf.epub).toBeNull();
      const image = await previews.preview({
        title: 'The Long Afternoon',
        author: 'Mira Kapoor',
        name: 'Ravi',
        message: '',
        purchaseDate: '2026-11-25',
        publicUrl: 'https://shop.example',
        widthPx: 300,
      });
      expect(Buffer.from(image.subarray(1, 4)).toString('latin1')).toBe('PNG');
    } finally {
      await Promise.all([personas.close(), previews.close(), cold.close()]);
    }
  }, 60_000);

  it("runs the Persona pool's threads at the niceness it is given, and the others at the process's own", async () => {
    // This process's threads' nice values (Linux: /proc/self/task/<tid>/stat, field 19).
    const niceOfThreads = () =>
      readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      });
    const before = niceOfThreads().filter((n) => n === PERSONA_THREAD_NICENESS).length;
    const personas = workerBuildPool({ size: 2, cacheBytes: 0, warm: 'personas', niceness: PERSONA_THREAD_NICENESS }, script);
    const previews = workerBuildPool({ size: 1, cacheBytes: 0, warm: 'previews' }, script);
    try {
      await Promise.all([personas.ready!(), previews.ready!()]);
      // The two Persona threads, and no other (the previews' thread, the main one keep theirs).
      expect(niceOfThreads().filter((n) => n === PERSONA_THREAD_NICENESS).length - before).toBe(2);
    } finally {
      await Promise.all([personas.close(), previews.close()]);
    }
  }, 60_000);
});

describe('previews on the worker pool', () => {
  const preview = (name: string) => ({
    title: 'The Long Afternoon',
    author: 'Mira Kapoor',
    name,
    message: '',
    purchaseDate: '2026-11-25',
    publicUrl: 'https://shop.example',
    widthPx: 300,
  });

  it('draws on a worker thread, and drops a preview whose request was abandoned before a thread took it', async () => {
    const pool = workerBuildPool({ size: 1, cacheBytes: 0 }, script);
    try {
      const first = pool.preview(preview('अनन्या'));
      const abandoned = new AbortController();
      const second = pool.preview(preview('Ravi'), abandoned.signal);
      abandoned.abort();
      const image = await first;
      expect(Buffer.from(image.subarray(1, 4)).toString('latin1')).toBe('PNG');
      await expect(second).rejects.toBeInstanceOf(PreviewAbandonedError);
      // Already abandoned: never queued.
      await expect(pool.preview(preview('Meera'), abandoned.signal)).rejects.toBeInstanceOf(PreviewAbandonedError);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
