// The personalisation service as its contract tests start it, on either kind of stack (PGlite, or
// the PostgreSQL of TEST_DATABASE_URL) with a Personas folder of its own and no catalogue to call;
// `close` stops it and removes both. Also what those tests feed it: the catalogue's one-chapter
// book and an order paid for a Persona of it.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TEST_JWT_SECRET } from '@persona/test-kit';
import { openTestStack } from '@persona/test-stack';
import type { PersonalizationDB } from '../../src/db';
import type { SourceReader } from '../../src/modules/personas/book-source-client';
import { startPersonalizationService, type PersonalizationServiceOptions } from '../../src/service';

export type StackKind = 'pglite' | 'postgres';

/** The services' shared INTERNAL_TOKEN in these tests. */
export const INTERNAL_TOKEN = 'x'.repeat(32);

export async function startServiceOn(kind: StackKind, overrides: Partial<PersonalizationServiceOptions> = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'personas-'));
  const stack = await openTestStack<PersonalizationDB>(kind, 'personalization');
  const service = await startPersonalizationService({
    database: stack.database,
    bus: stack.bus,
    logger: stack.logger,
    catalogueUrl: 'http://127.0.0.1:1',
    internalToken: INTERNAL_TOKEN,
    jwtSecret: TEST_JWT_SECRET,
    publicUrl: 'https://shop.example',
    personasDir: dir,
    ...overrides,
  });
  return {
    service,
    stack,
    bus: stack.bus,
    database: stack.database,
    /** The Personas folder. */
    dir,
    async close() {
      await service.close();
      await stack.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The book the tests' orders are for. */
export const BOOK_ID = '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c';

/** The catalogue's answer for any book: one short chapter of plain text. */
export const readOneChapter: SourceReader = async () => ({
  title: 'The Lighthouse Keeper',
  author: 'Meera Iyer',
  language: 'English',
  source: { kind: 'text', paragraphs: ['# Chapter One', 'A quiet story about light and distance on the Malabar coast.'] },
});

/** The payload of `order.paid` for a digital Persona of `bookId` (BOOK_ID unless given), paid now. */
export function paidOrder(orderId: string, personaId: string, { bookId = BOOK_ID, buyerName = 'Zoë Ünal' }: { bookId?: string; buyerName?: string } = {}) {
  return {
    orderId,
    personaId,
    bookId,
    buyerName,
    purchaseDate: '2026-11-22',
    deliveryType: 'digital' as const,
    amountPaise: 34950,
    paidAt: new Date().toISOString(),
  };
}

/**
 * Starts the service on `kind` before the current describe's tests (60 s allowed) and stops it
 * after; answers getters for its parts, there once the tests run.
 */
export function serviceHarness(kind: StackKind, overrides: Partial<PersonalizationServiceOptions> = {}) {
  let started: Awaited<ReturnType<typeof startServiceOn>> | undefined;
  beforeAll(async () => {
    started = await startServiceOn(kind, overrides);
  }, 60_000);
  afterAll(() => started?.close());
  const running = () => {
    if (!started) throw new Error('the personalisation service has not started yet');
    return started;
  };
  return {
    get service() {
      return running().service;
    },
    get bus() {
      return running().bus;
    },
    get database() {
      return running().database;
    },
    get stack() {
      return running().stack;
    },
    /** The Personas folder. */
    get dir() {
      return running().dir;
    },
  };
}
