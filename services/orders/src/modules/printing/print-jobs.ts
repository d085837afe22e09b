// A printed copy's print job (issue 27): queued in the transaction that records its Persona ready
// with print files that passed the preflight; handed to the print provider by background rounds
// (the leader's), tried again with growing waits when the house refuses or cannot be reached; moved
// by the house's signed webhooks, a shipment marking the order shipped with its carrier and tracking
// number, as an administrator would (the buyer's e-mail, the event, the public log's entry).
import { sql, type Kysely } from 'kysely';
import type { Logger, PrintFile } from '@persona/service-kit';
import type { OrdersDB } from '../../db';
import type { ShopMail } from '../mail/emails.repository';
import type { OrderChangeContext } from '../order-records/order-change-context';
import type { OrderRow } from '../order-records/orders.repository';
import { shippingAddress } from '../order-records/orders.mapper';
import { changeDeliveryStatus } from '../orders/orders.service';
import type { PrintJobRequest, PrintJobUpdate, PrintProvider } from './print-provider';

/** Waits before the next attempt at a job the house refused or did not answer: a minute, then longer, at most six hours. */
export const RETRY_WAITS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000];
const ROUND_SIZE = 10;

export interface PrintJobsContext {
  db: Kysely<OrdersDB>;
  provider: PrintProvider;
  /** A print file's address for the house (printFileUrl). */
  fileUrl: (personaId: string, file: PrintFile) => string;
  logger: Logger;
}

/** What the house needs of an order: its print files, its book, the reader's address. */
function jobRequest(order: OrderRow, ctx: PrintJobsContext): PrintJobRequest {
  const address = shippingAddress(order);
  if (!address) throw new Error('the printed order has no address');
  return {
    orderId: order.id,
    personaId: order.persona_id,
    title: order.book_title,
    interiorUrl: ctx.fileUrl(order.persona_id, 'interior'),
    coverUrl: ctx.fileUrl(order.persona_id, 'cover'),
    shipTo: {
      name: address.name,
      phone: address.phone,
      line1: address.line1,
      ...(address.line2 ? { line2: address.line2 } : {}),
      city: address.city,
      ...(address.state ? { state: address.state } : {}),
      zip: address.zip,
      country: 'IN',
    },
  };
}

/** One round: the due queued jobs, each handed to the provider; answers how many were handed over. */
export async function submitPrintJobs(ctx: PrintJobsContext): Promise<number> {
  let sent = 0;
  for (let i = 0; i < ROUND_SIZE; i += 1) {
    const done = await ctx.db.transaction().execute(async (trx) => {
      const job = await trx
        .selectFrom('print_jobs')
        .selectAll()
        .where('status', '=', 'queued')
        .where('next_attempt_at', '<=', new Date())
        .orderBy('next_attempt_at')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!job) return null;
      const order = await trx.selectFrom('orders').selectAll().where('id', '=', job.order_id).executeTakeFirstOrThrow();
      try {
        // Held under the job's row lock: another replica's round skips it, so it is sent once.
        const { jobId } = await ctx.provider.submit(jobRequest(order as OrderRow, ctx));
        await trx
          .updateTable('print_jobs')
          .set({ status: 'submitted', provider_job_id: jobId, attempts: job.attempts + 1, last_error: null, next_attempt_at: null, updated_at: sql`now()` })
          .where('order_id', '=', job.order_id)
          .execute();
        ctx.logger.info({ orderId: job.order_id, provider: ctx.provider.name, jobId }, 'print job handed to the print provider');
        return true;
      } catch (err) {
        const wait = RETRY_WAITS_MS[Math.min(job.attempts, RETRY_WAITS_MS.length - 1)]!;
        await trx
          .updateTable('print_jobs')
          .set({
            attempts: job.attempts + 1,
            last_error: (err as Error).message.slice(0, 500),
            next_attempt_at: new Date(Date.now() + wait),
            updated_at: sql`now()`,
          })
          .where('order_id', '=', job.order_id)
          .execute();
        ctx.logger.warn({ err, orderId: job.order_id, provider: ctx.provider.name, retryInMs: wait }, 'print job not handed over; tried again later');
        return false;
      }
    });
    if (done === null) break;
    if (done) sent += 1;
  }
  return sent;
}

/** A tracking number as the order keeps it: letters, digits, spaces and dashes. */
const trackingNumberOf = (value: string | undefined) =>
  value
    ?.replace(/[^A-Za-z0-9 -]/g, '')
    .replace(/^[ -]+/, '')
    .slice(0, 60) || undefined;

/**
 * A house's update to one of its jobs: the job's status, and for a shipment the order marked
 * shipped with its carrier and tracking number. Answers whether a job of this shop was updated.
 */
export async function applyPrintJobUpdate(
  ctx: OrderChangeContext & { shop: ShopMail; db: Kysely<OrdersDB>; provider: PrintProvider; logger: Pick<Logger, 'warn'> },
  update: PrintJobUpdate,
): Promise<boolean> {
  const job = await ctx.db
    .selectFrom('print_jobs')
    .selectAll()
    .where('provider', '=', ctx.provider.name)
    .where('provider_job_id', '=', update.jobId)
    .executeTakeFirst();
  if (!job || (update.orderId !== null && update.orderId !== job.order_id)) return false;
  if (update.status === 'shipped' && job.status !== 'shipped') {
    const order = await ctx.db.selectFrom('orders').select('delivery_status').where('id', '=', job.order_id).executeTakeFirstOrThrow();
    if (order.delivery_status === 'pending') {
      const carrier = update.carrier?.trim() || undefined;
      const trackingNumber = trackingNumberOf(update.trackingNumber);
      await changeDeliveryStatus(ctx, job.order_id, {
        deliveryStatus: 'shipped',
        ...(carrier ? { carrier } : {}),
        ...(trackingNumber ? { trackingNumber } : {}),
      });
    }
  }
  // A late update never takes a job back (in production after shipped).
  const rank = { queued: 0, submitted: 1, in_production: 2, shipped: 3, rejected: 3, cancelled: 3 } as const;
  if (rank[update.status] >= rank[job.status as keyof typeof rank]) {
    await ctx.db
      .updateTable('print_jobs')
      .set({
        status: update.status,
        last_error: update.status === 'rejected' || update.status === 'cancelled' ? update.detail.slice(0, 500) : job.last_error,
        updated_at: sql`now()`,
      })
      .where('order_id', '=', job.order_id)
      .execute();
  }
  if (update.status === 'rejected' || update.status === 'cancelled')
    ctx.logger.warn({ orderId: job.order_id, jobId: update.jobId, detail: update.detail }, 'the print house did not print this copy');
  return true;
}
