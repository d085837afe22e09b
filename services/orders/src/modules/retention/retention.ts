// How long the orders service keeps what grows with every sale (README, "Configuration"), and the
// round that prunes the rest: hourly, in the replica that leads, a batch at a time. Invoices,
// credit notes, orders and refunds are never pruned: the tax records must be kept for years.
import type { Logger, MetricsRegistry } from '@persona/service-kit';
import type { Kysely } from 'kysely';
import type { OrdersDB } from '../../db';
import * as repo from './retention.repository';

const DAY_MS = 86_400_000;

export interface RetentionSettings {
  /** Days an e-mail's body is kept after it was sent (EMAIL_BODY_RETENTION_DAYS). */
  emailBodyDays: number;
  /** Days a handled payment webhook is kept (WEBHOOK_EVENTS_RETENTION_DAYS). */
  webhookEventDays: number;
  /** Days a payment attempt is kept (PAYMENT_ATTEMPTS_RETENTION_DAYS). */
  paymentAttemptDays: number;
  /** Days a library link or session is kept after it expired (LIBRARY_TOKENS_RETENTION_DAYS). */
  libraryTokenDays: number;
}

/**
 * E-mail bodies half a year: long enough to send a buyer's e-mail again for any question of the
 * season (the row stays for good). Webhooks a quarter: Razorpay retries one for a day, and a
 * dispute is raised within weeks. Payment attempts thirteen months: a chargeback may come up to
 * 120 days after a payment, and a year's accounts are closed with them at hand. Library tokens a
 * week after they expire: they open nothing, and a buyer's "the link did not work" is asked within it.
 */
export const DEFAULT_RETENTION: RetentionSettings = { emailBodyDays: 180, webhookEventDays: 90, paymentAttemptDays: 400, libraryTokenDays: 7 };

/** What one round pruned, by table and what happened to the rows. */
export interface RetentionCounts {
  emailBodiesBlanked: number;
  emailsDeleted: number;
  webhookEventsDeleted: number;
  paymentAttemptsDeleted: number;
  libraryTokensDeleted: number;
}

export interface RetentionRecorder {
  pruned(counts: RetentionCounts): void;
}

/** `retention_pruned_rows_total{table,action}` on /metrics. */
export function retentionMetrics(registry: MetricsRegistry): RetentionRecorder {
  const rows = registry.counter({
    name: 'retention_pruned_rows_total',
    help: 'Rows pruned by the retention round, by table and action (deleted, or a body blanked)',
    labelNames: ['table', 'action'],
  });
  return {
    pruned(counts) {
      rows.inc({ table: 'emails', action: 'blanked' }, counts.emailBodiesBlanked);
      rows.inc({ table: 'emails', action: 'deleted' }, counts.emailsDeleted);
      rows.inc({ table: 'webhook_events', action: 'deleted' }, counts.webhookEventsDeleted);
      rows.inc({ table: 'payment_attempts', action: 'deleted' }, counts.paymentAttemptsDeleted);
      rows.inc({ table: 'library_tokens', action: 'deleted' }, counts.libraryTokensDeleted);
    },
  };
}

/** Runs one batched statement until a batch comes back short; the rows it pruned in all. */
async function inBatches(statement: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await statement();
    total += n;
    if (n < repo.RETENTION_BATCH) return total;
  }
}

/** Prunes everything past its retention at `now`; what it pruned. */
export async function pruneRetained(db: Kysely<OrdersDB>, settings: RetentionSettings, now = new Date()): Promise<RetentionCounts> {
  const before = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const emailsCutoff = before(settings.emailBodyDays);
  const emailsDeleted = await inBatches(() => repo.deleteOrderlessEmails(db, emailsCutoff));
  const emailBodiesBlanked = await inBatches(() => repo.blankEmailBodies(db, emailsCutoff));
  const webhookEventsDeleted = await inBatches(() => repo.deleteHandledWebhookEvents(db, before(settings.webhookEventDays)));
  const paymentAttemptsDeleted = await inBatches(() => repo.deletePaymentAttempts(db, before(settings.paymentAttemptDays)));
  const libraryTokensDeleted = await inBatches(() => repo.deleteExpiredLibraryTokens(db, before(settings.libraryTokenDays)));
  return { emailBodiesBlanked, emailsDeleted, webhookEventsDeleted, paymentAttemptsDeleted, libraryTokensDeleted };
}

/** One round of the background work: prunes, logs and counts what it pruned; how many rows. */
export function retentionRound(db: Kysely<OrdersDB>, settings: RetentionSettings, logger: Logger, recorder?: RetentionRecorder) {
  return async (): Promise<number> => {
    const counts = await pruneRetained(db, settings);
    recorder?.pruned(counts);
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    if (total > 0) logger.info({ ...counts, retentionDays: settings }, 'rows past their retention pruned');
    return total;
  };
}
