// Graceful shutdown with a Persona in the making: it is finished and
// announced within the grace, or its message goes back to the queue and the
// next instance makes it — never lost, never made twice, never counted as a
// failed attempt.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createEvent, type EventBus } from '@persona/bus';
import { sql, type Database } from '@persona/db';
import type { Logger } from '@persona/service-kit';
import { openTestStack, type TestStack } from '@persona/test-stack';
import type { PersonalizationDB } from '../../src/db';
import type { SourceReader } from '../../src/modules/personas/book-source-client';
import { inlineBuildPool, BuildPoolClosedError, type BuildPool } from '../../src/modules/build-pool/build-pool';
import { PERSONALIZATION_QUEUE } from '../../src/modules/personas/personalize';
import { buildPersonaPdf } from '../../src/modules/pdf-engine/build-persona-pdf';
import { startPersonalizationService, type PersonalizationService } from '../../src/service';
import { TEST_JWT_SECRET } from '@persona/test-kit';

const BOOK_ID = '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c';
const readSource: SourceReader = async () => ({
  title: 'The Lighthouse Keeper',
  author: 'Meera Iyer',
  language: 'English',
  source: { kind: 'text', paragraphs: ['# One', 'A short story about the sea.'] },
});

/** A PDF pool whose builds wait until the test lets them go, like a long PDF on a worker thread. */
function heldBuilder() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started = 0;
  const waiting = new Set<(err: Error) => void>();
  const buildPool: BuildPool = {
    kind: 'inline',
    async build(input) {
      started++;
      await new Promise<void>((resolve, reject) => {
        waiting.add(reject);
        void released.then(() => {
          waiting.delete(reject);
          resolve();
        });
      });
      return { ...(await buildPersonaPdf(input)), epub: null, print: null };
    },
    preview: () => Promise.reject(new Error('no previews in this test')),
    async close() {
      // As the worker pool does: a build under way stops.
      for (const reject of waiting) reject(new BuildPoolClosedError());
      waiting.clear();
    },
  };
  return { buildPool, release, started: () => started };
}

async function waitFor(check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('personalisation shutdown with a Persona in the making', () => {
  let stack: TestStack<PersonalizationDB>;
  let bus: EventBus;
  let database: Database<PersonalizationDB>;
  let logger: Logger;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'personas-shutdown-'));
    stack = await openTestStack<PersonalizationDB>('pglite', 'personalization');
    ({ bus, database, logger } = stack);
  }, 60_000);
  afterAll(async () => {
    await stack.close();
    await rm(dir, { recursive: true, force: true });
  });

  const start = (buildPool: BuildPool, maxAttempts = 5): Promise<PersonalizationService> =>
    startPersonalizationService({
      database,
      bus,
      logger,
      catalogueUrl: 'http://127.0.0.1:1',
      internalToken: 'x'.repeat(32),
      jwtSecret: TEST_JWT_SECRET,
      publicUrl: 'https://shop.example',
      personasDir: dir,
      readSource,
      buildPool,
      maxAttempts,
    });
  const paid = (personaId: string) =>
    createEvent(
      'order.paid',
      {
        orderId: randomUUID(),
        personaId,
        bookId: BOOK_ID,
        buyerName: 'Asha',
        purchaseDate: '2026-11-22',
        deliveryType: 'digital',
        amountPaise: 34950,
        paidAt: new Date().toISOString(),
      },
      { correlationId: `shutdown-${personaId}` },
    );
  const personas = (personaId: string) => database.db.selectFrom('personas').select(['status']).where('persona_id', '=', personaId).execute();
  const announced = async (personaId: string) =>
    (
      await sql<{
        type: string;
        published: boolean;
      }>`SELECT type, published_at IS NOT NULL AS published FROM outbox WHERE envelope->'payload'->>'personaId' = ${personaId}`.execute(database.db)
    ).rows;
  const queued = async () =>
    (
      await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM ${sql.id(stack.busSchema, 'bus_messages')} WHERE queue = ${PERSONALIZATION_QUEUE} AND NOT dead`.execute(database.db)
    ).rows[0]!.n;

  it('finishes the Persona being made when it fits in the grace: made once, persona.ready published, message acknowledged', async () => {
    const personaId = 'PRS-AAAA-BBBB-CCCC-DDDD';
    const held = heldBuilder();
    const service = await start(held.buildPool);
    await bus.publish(paid(personaId));
    await waitFor(() => held.started() === 1);

    const closing = service.close({ graceMs: 10_000 });
    await new Promise((r) => setTimeout(r, 150));
    held.release(); // the PDF finishes while the service is shutting down
    await closing;

    expect(await personas(personaId)).toEqual([{ status: 'ready' }]);
    // The outbox was flushed on the way out.
    expect(await announced(personaId)).toEqual([{ type: 'persona.ready', published: true }]);
    expect(await queued()).toBe(0);
    expect(await service.app.metrics.render()).toMatch(/^personas_made_total 1$/m);
  }, 60_000);

  it('returns a Persona that does not finish in time to the queue, without recording a failure, and the next instance makes it once', async () => {
    const personaId = 'PRS-EEEE-FFFF-GGGG-HHHH';
    const held = heldBuilder();
    // One attempt only: were the shutdown counted as a failure, the Persona would be recorded failed.
    const first = await start(held.buildPool, 1);
    await bus.publish(paid(personaId));
    await waitFor(() => held.started() === 1);

    const started = Date.now();
    await first.close({ graceMs: 200 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await personas(personaId)).toEqual([]);
    expect(await announced(personaId)).toEqual([]);
    expect(await queued()).toBe(1); // back in the queue, not dead-lettered
    expect(await first.app.metrics.render()).toMatch(/^personas_failed_total 0$/m);

    const next = await start(inlineBuildPool(), 1);
    try {
      await waitFor(async () => (await personas(personaId)).length === 1);
      await waitFor(async () => (await queued()) === 0);
      expect(await personas(personaId)).toEqual([{ status: 'ready' }]);
      expect((await announced(personaId)).map((e) => e.type)).toEqual(['persona.ready']);
    } finally {
      await next.close();
    }
  }, 60_000);
});
