// Fault scenario 3 (issue 23): refunds while RabbitMQ restarts. FAULTS_REFUND_ORDERS orders are
// paid, then each is refunded in two parts (a partial refund, then all that is left), every refund
// pressed twice at once as an impatient owner does, one more refund refused as too large, while the
// broker is stopped and started again. Each refund must be made once at Razorpay (the stand-in's
// refund webhooks name one Razorpay refund per refund of ours), reach processed, be e-mailed once,
// get one credit note (a refund processed before its order's invoice was issued is credited as the
// invoice is: on CI 45 of 80 once went without), never add up to more than was paid, and its every
// change of state reach the audit log once (through the broker that went away). The counts are printed on one line.
import { connect } from 'amqplib';
import { describeWithPostgres, describeWithRabbit } from '@persona/test-kit';
import {
  addSmallBook,
  checkoutBody,
  describeWithRabbitmqctl,
  post,
  queueDepth,
  restartBroker,
  sleep,
  startBrokerIfStopped,
  startFaultShop,
  type Answer,
  type FaultShop,
} from './support/cluster';

const ORDERS = Number(process.env.FAULTS_REFUND_ORDERS ?? 40);
/** The first refund of each order; the second is what is left. */
const PARTIAL_PAISE = 5000;
const RABBIT_DOWN_MS = 4000;

describeWithPostgres()('fault suite', () => {
  describeWithRabbit()('on the real PostgreSQL and RabbitMQ', () => {
    describeWithRabbitmqctl()(`scenario 3: ${2 * ORDERS} refunds, each pressed twice, through a broker restart`, () => {
      let shop: FaultShop;
      let book: string;

      beforeAll(async () => {
        shop = await startFaultShop({ label: 'refunds' });
        book = await addSmallBook(shop, 'The Short Refund');
      }, 180_000);

      afterAll(async () => {
        await startBrokerIfStopped();
        await shop?.close();
      }, 120_000);

      it('makes each refund once, up to what was paid and not a paisa more, and audits each change once', async () => {
        const started = Date.now();
        const url = (p: string) => `${shop.url}${p}`;
        const runId = started.toString(36);
        const transient = (a: Answer) => a.status === 0 || a.status >= 500 || a.status === 429;
        let retries = 0;
        const untilAnswered = async (send: () => Promise<Answer>): Promise<Answer> => {
          for (let delay = 200, end = Date.now() + 120_000; ; delay = Math.min(2000, delay * 2)) {
            const answer = await send();
            if (!transient(answer) || Date.now() > end) return answer;
            retries++;
            await sleep(delay);
          }
        };

        // The orders, paid before the faults (scenario 1 covers paying through them).
        const paidIds: string[] = [];
        let next = 0;
        await Promise.all(
          Array.from({ length: 6 }, async () => {
            for (let n = next++; n < ORDERS; n = next++) {
              const init = await untilAnswered(() =>
                post(url('/api/payments/initiate'), checkoutBody(book, n), { 'idempotency-key': `refunds-${runId}-${n}` }),
              );
              if (init.status !== 200) throw new Error(`initiate ${n} answered ${init.status}: ${init.body?.message ?? init.error}`);
              const { orderId, razorpayOrderId } = init.body!.data!;
              const paid = await untilAnswered(() => post(url('/api/payments/test-mode/pay'), { razorpayOrderId, outcome: 'success' }));
              if (paid.status !== 200) throw new Error(`pay ${n} answered ${paid.status}: ${paid.body?.message ?? paid.error}`);
              const p = paid.body!.data!;
              const verified = await untilAnswered(() =>
                post(url('/api/payments/verify'), {
                  orderId,
                  razorpayOrderId,
                  razorpayPaymentId: p.razorpay_payment_id,
                  razorpaySignature: p.razorpay_signature,
                }),
              );
              if (verified.status !== 200) throw new Error(`verify ${n} answered ${verified.status}: ${verified.body?.message ?? verified.error}`);
              paidIds.push(orderId);
            }
          }),
        );
        const paidAt = Date.now();
        const { rows: paidRows } = await shop.db.query(`SELECT id, amount_paise FROM orders.orders WHERE id = ANY($1)`, [paidIds]);
        const orders = paidRows.map((r) => ({ orderId: r.id as string, amountPaise: Number(r.amount_paise) }));
        expect(orders).toHaveLength(ORDERS);

        /** One refund, pressed twice at once with the same id; both answers must agree. */
        const refund = async (orderId: string, refundId: string, amountPaise: number): Promise<Answer> => {
          const send = () =>
            untilAnswered(() => post(url(`/api/orders/${orderId}/refunds`), { refundId, amountPaise, reason: 'Fault suite' }, { authorization: shop.admin }));
          const [a, b] = await Promise.all([send(), send()]);
          if (a.status !== b.status) throw new Error(`refund ${refundId} pressed twice answered ${a.status} and ${b.status}`);
          return a;
        };

        // The refunds: a partial one, then the rest, then one paisa-more that is refused; the broker
        // restarts a third of the way through.
        const refundIds = new Map<string, string[]>();
        const refused: number[] = [];
        let done = 0;
        let k = 0;
        const refunds = Promise.all(
          Array.from({ length: 6 }, async () => {
            for (let i = k++; i < orders.length; i = k++) {
              const { orderId, amountPaise } = orders[i]!;
              const ids = [crypto.randomUUID(), crypto.randomUUID()];
              refundIds.set(orderId, ids);
              const first = await refund(orderId, ids[0]!, PARTIAL_PAISE);
              if (first.status !== 200) throw new Error(`partial refund of ${orderId} answered ${first.status}: ${first.body?.message ?? first.error}`);
              const rest = await refund(orderId, ids[1]!, amountPaise - PARTIAL_PAISE);
              if (rest.status !== 200) throw new Error(`refund of the rest of ${orderId} answered ${rest.status}: ${rest.body?.message ?? rest.error}`);
              const more = await refund(orderId, crypto.randomUUID(), 100);
              refused.push(more.status);
              done++;
            }
          }),
        );
        const faults: string[] = [];
        const chaos = (async () => {
          while (done < orders.length / 3) await sleep(50);
          const from = done;
          faults.push(`${await restartBroker(RABBIT_DOWN_MS)} after ${from} orders refunded`);
        })();
        const results = await Promise.allSettled([refunds, chaos]);
        const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failures.length > 0) throw new Error(`${failures.map((f) => (f.reason as Error).message).join('\n')}\n${shop.recentLogs()}`);
        const refundedAt = Date.now();

        // Until every refund is processed, e-mailed, and every event has reached the audit log.
        const one = async (q: string) => Number((await shop.db.query(q)).rows[0].n);
        const deadline = Date.now() + 240_000;
        for (;;) {
          const processed = await one(`SELECT count(*) AS n FROM orders.refunds WHERE status = 'processed'`);
          const mailed = await one(`SELECT count(*) AS n FROM orders.emails WHERE kind = 'refund-processed' AND sent_at IS NOT NULL`);
          const unpublished = await one(`SELECT count(*) AS n FROM orders.outbox WHERE published_at IS NULL`);
          // A refund processed before its order's receipt (which issues the invoice) is credited with the invoice.
          const credited = await one(`SELECT count(*) AS n FROM orders.invoices WHERE kind = 'credit-note'`);
          const done = processed === 2 * ORDERS && mailed === 2 * ORDERS && credited === 2 * ORDERS && unpublished === 0;
          if ((done && (await queueDepth(shop, ['admin.audit'])) === 0) || Date.now() > deadline) break;
          await sleep(500);
        }
        await sleep(1000); // an audit message handed out just now is written
        const settledAt = Date.now();

        const statuses = Object.fromEntries(
          (await shop.db.query(`SELECT status, count(*) AS n FROM orders.refunds GROUP BY 1`)).rows.map((r) => [r.status, Number(r.n)]),
        );
        // Razorpay's side: the refunds its webhooks named, per refund of ours (notes.refund_id).
        const atRazorpay = (
          await shop.db.query(`
            SELECT action->>'refundKey' AS refund_id, count(DISTINCT action->>'providerRefundId') AS n
            FROM orders.webhook_events WHERE action->>'action' = 'refund' GROUP BY 1`)
        ).rows;
        const madeOnce = atRazorpay.filter((r) => Number(r.n) === 1).length;
        const madeMore = atRazorpay.filter((r) => Number(r.n) > 1).length;
        const ours = new Set([...refundIds.values()].flat());
        const unknownAtRazorpay = atRazorpay.filter((r) => !ours.has(r.refund_id)).length;
        const overRefunded = await one(`
          SELECT count(*) AS n FROM orders.orders o
          WHERE (SELECT coalesce(sum(amount_paise), 0) FROM orders.refunds r WHERE r.order_id = o.id AND r.status <> 'failed') > o.amount_paise`);
        const fullyRefunded = await one(`
          SELECT count(*) AS n FROM orders.orders o
          WHERE (SELECT coalesce(sum(amount_paise), 0) FROM orders.refunds r WHERE r.order_id = o.id AND r.status = 'processed') = o.amount_paise`);
        const emails = await one(`SELECT count(*) AS n FROM orders.emails WHERE kind = 'refund-processed'`);
        const creditNotes = await one(`SELECT count(*) AS n FROM orders.invoices WHERE kind = 'credit-note'`);
        const events = await one(`SELECT count(DISTINCT envelope->>'id') AS n FROM orders.outbox WHERE type = 'order.refund_changed'`);
        const audited = await one(`SELECT count(*) AS n FROM admin.audit_log WHERE type = 'order.refund_changed'`);
        const amqp = await connect(shop.amqpUrl);
        const deadLetters = await amqp
          .createChannel()
          .then(async (channel) => (await channel.checkQueue('admin.audit.dlq')).messageCount)
          .finally(() => amqp.close());

        process.stdout.write(
          `\nFAULTS scenario 3: ${2 * ORDERS} refunds of ${ORDERS} orders, each pressed twice → ${JSON.stringify(statuses)}; ` +
            `${madeOnce} made once at Razorpay (${madeMore} more than once, ${unknownAtRazorpay} not ours); ${fullyRefunded} orders refunded in full, ${overRefunded} over; ` +
            `one paisa more refused ${refused.filter((s) => s === 409).length}/${refused.length}; ${emails} e-mails, ${creditNotes} credit notes; ` +
            `${events} refund events → ${audited} audit entries, dead letters ${deadLetters} | faults: ${faults.join('; ')} | retries ${retries} ` +
            `| ${Math.round((settledAt - started) / 1000)} s (paid at ${Math.round((paidAt - started) / 1000)} s, refunds answered at ${Math.round((refundedAt - started) / 1000)} s)\n`,
        );

        expect({ statuses, madeOnce, madeMore, unknownAtRazorpay, fullyRefunded, overRefunded, emails, creditNotes, deadLetters }).toEqual({
          statuses: { processed: 2 * ORDERS },
          madeOnce: 2 * ORDERS,
          madeMore: 0,
          unknownAtRazorpay: 0,
          fullyRefunded: ORDERS,
          overRefunded: 0,
          emails: 2 * ORDERS,
          creditNotes: 2 * ORDERS,
          deadLetters: 0,
        });
        expect(refused).toEqual(Array.from({ length: ORDERS }, () => 409));
        // Requested, pending (at least; the answer may already say processed) and processed: each change audited once.
        expect(events).toBeGreaterThanOrEqual(2 * 2 * ORDERS);
        expect(audited).toBe(events);
        expect(faults).toHaveLength(1);
      }, 600_000);
    });
  });
});
