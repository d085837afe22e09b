// Small helpers shared by the bus tests.
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@persona/contracts';
import { openDatabase, openPglite, type Database, type SharedPglite } from '@persona/db';
import { createInProcessBus, type EventBus, type EventCheck } from '../src';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function waitFor(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 8000): Promise<void> {
  const start = Date.now();
  while (!(await cond())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/** Any event type, including ones not (yet) in the contracts, for routing tests. */
export function envelope(type: string, payload: unknown = {}, id: string = randomUUID()): EventEnvelope {
  return { id, type, occurredAt: new Date().toISOString(), correlationId: `test-${id.slice(0, 8)}`, payload };
}

/** A promise with its resolve handle, for handlers a test holds open. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** An in-process bus on a fresh in-memory PGlite (its schema `bus`), ready; `close` ends both. */
export async function pgliteBus(check?: EventCheck): Promise<{ bus: EventBus; database: Database<unknown>; shared: SharedPglite; close(): Promise<void> }> {
  const shared = await openPglite();
  const database = openDatabase({ kind: 'pglite', shared }, 'bus');
  const bus = createInProcessBus({ database, pollIntervalMs: 50, check });
  await waitFor(() => bus.isReady(), 'bus migrations');
  return {
    bus,
    database,
    shared,
    async close() {
      await bus.close();
      await shared.close();
    },
  };
}
