// The set-up of the tests of the e-mails the orders service queues on an event (an answer to a
// visitor's message, a link for more downloads): the harness started before a describe's tests and
// stopped after, the shop the e-mails name, the e-mails of one kind it queued, and a wait for them.
import { sql } from '@persona/db';
import { startOrdersHarness, type OrdersHarness } from '../support';

/** The shop as the e-mails name it (the harness's own address and help desk). */
export const SHOP = { publicUrl: 'https://shop.example', supportEmail: 'help@shop.example' };

/**
 * Starts the orders service on `kind` before the current describe's tests and stops it after;
 * answers the harness, whose parts are there once the tests run (not while the describe is declared).
 */
export function ordersHarnessFor(kind: 'pglite' | 'postgres', extra?: Parameters<typeof startOrdersHarness>[1]): OrdersHarness {
  let h: OrdersHarness | undefined;
  beforeAll(async () => {
    h = await startOrdersHarness(kind, extra);
  });
  afterAll(() => h?.close());
  const started = () => {
    if (!h) throw new Error('the orders harness has not started yet');
    return h;
  };
  return {
    get service() {
      return started().service;
    },
    get database() {
      return started().database;
    },
    get bus() {
      return started().bus;
    },
    get mailDir() {
      return started().mailDir;
    },
    get admin() {
      return started().admin;
    },
    close: () => started().close(),
  };
}

/** An e-mail as the service queued it (a row of `emails`). */
export interface QueuedEmail {
  order_id: string | null;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
}

/** The e-mails of `kind` queued for one order or one occasion, oldest first. */
export async function queuedEmails(h: Pick<OrdersHarness, 'database'>, kind: string, of: { orderId: string } | { occasion: string }): Promise<QueuedEmail[]> {
  const match = 'orderId' in of ? sql`order_id = ${of.orderId}` : sql`occasion = ${of.occasion}`;
  return (
    await sql<QueuedEmail>`SELECT order_id, to_address, subject, text_body, html_body FROM emails WHERE kind = ${kind} AND ${match} ORDER BY created_at`.execute(
      h.database.db,
    )
  ).rows;
}

/** Waits (10 s at the most) until `read` finds an e-mail queued. */
export async function untilQueued(read: () => Promise<unknown[]>): Promise<void> {
  for (const end = Date.now() + 10_000; (await read()).length === 0; await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() > end) throw new Error('no e-mail was queued');
  }
}
