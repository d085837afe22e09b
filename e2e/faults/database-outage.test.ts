// Fault scenario 2: PostgreSQL unavailable for 10 s during a steady stream of
// checkouts. The services reach PostgreSQL through a TCP proxy the test cuts
// (open connections destroyed, new ones refused) and restores. During the
// outage every answer is a clear 503 with a JSON message, never a 500 and
// never a hang; no order is left half-written; afterwards checkouts succeed
// again and every accepted order gets its Persona.
import { describeWithPostgres, describeWithRabbit, TEST_DATABASE_URL } from '@persona/test-kit';
import { addSmallBook, checkoutBody, describeWithRabbitmqctl, post, sleep, startFaultShop, type Answer, type FaultShop } from './support/cluster';
import { TcpProxy } from './support/tcp-proxy';

const OUTAGE_MS = 10_000;
const BEFORE_MS = 6_000;
const AFTER_MS = 10_000;
const BUYERS = 4;
/** No answer may take longer than this. */
const REQUEST_TIMEOUT_MS = 10_000;

type Phase = 'before' | 'outage' | 'after';
interface Seen extends Answer {
  step: 'initiate' | 'pay' | 'verify';
  phase: Phase;
}

describeWithPostgres()('fault suite', () => {
  describeWithRabbit()('on the real PostgreSQL and RabbitMQ', () => {
    describeWithRabbitmqctl()('scenario 2: PostgreSQL unavailable for 10 s during checkouts', () => {
      let shop: FaultShop;
      let proxy: TcpProxy;
      let bookId: string;

      beforeAll(async () => {
        const pg = new URL(TEST_DATABASE_URL);
        proxy = new TcpProxy({ host: pg.hostname || '127.0.0.1', port: Number(pg.port || 5432) });
        const proxyPort = await proxy.start();
        shop = await startFaultShop({
          label: 'pg',
          serviceDatabaseUrl: (url) => {
            const u = new URL(url);
            u.hostname = '127.0.0.1';
            u.port = String(proxyPort);
            return u.toString();
          },
          serviceEnv: { personalization: { PERSONA_RETRY_DELAYS_MS: '1000,3000,5000,10000' } },
        });
        bookId = await addSmallBook(shop, 'The Outage Book');
      }, 180_000);

      afterAll(async () => {
        await proxy?.restore().catch(() => undefined);
        await shop?.close();
        await proxy?.close();
      }, 60_000);

      it('answers clear 503s during the outage, writes no half orders and recovers fully', async () => {
        const started = Date.now();
        let phase: Phase = 'before';
        let stopping = false;
        let n = 0;
        const seen: Seen[] = [];
        const accepted: Array<{ orderId: string; personaId: string; phase: Phase }> = [];
        const failedCheckouts: Array<{ step: string; phase: Phase; status: number; message?: string }> = [];
        const gateway = (p: string) => `${shop.url}${p}`;

        const call = async (step: Seen['step'], p: string, body: unknown, headers: Record<string, string> = {}) => {
          const at = phase;
          const answer = await post(gateway(p), body, headers, REQUEST_TIMEOUT_MS);
          seen.push({ ...answer, step, phase: at });
          return answer;
        };

        // A buyer checks out again and again: a refused checkout is given up
        // (the buyer sees the message and tries again later); a paid one has its
        // verify retried until it answers, as the storefront does.
        const buyer = async () => {
          while (!stopping) {
            const i = ++n;
            const checkoutPhase = phase;
            const init = await call('initiate', '/api/payments/initiate', checkoutBody(bookId, i), { 'idempotency-key': `outage-${i}-${started}` });
            if (init.status !== 200) {
              failedCheckouts.push({ step: 'initiate', phase: checkoutPhase, status: init.status, message: init.body?.message });
              await sleep(300);
              continue;
            }
            const { orderId, razorpayOrderId } = init.body!.data!;
            const paid = await call('pay', '/api/payments/test-mode/pay', { razorpayOrderId, outcome: 'success' });
            if (paid.status !== 200) {
              failedCheckouts.push({ step: 'pay', phase: checkoutPhase, status: paid.status, message: paid.body?.message });
              await sleep(300);
              continue;
            }
            const payment = paid.body!.data!;
            const deadline = Date.now() + 60_000;
            for (;;) {
              const verified = await call('verify', '/api/payments/verify', {
                orderId,
                razorpayOrderId,
                razorpayPaymentId: payment.razorpay_payment_id,
                razorpaySignature: payment.razorpay_signature,
              });
              if (verified.status === 200) {
                accepted.push({ orderId, personaId: verified.body!.data!.personaId, phase: checkoutPhase });
                break;
              }
              if ((verified.status !== 503 && verified.status !== 0) || Date.now() > deadline) {
                failedCheckouts.push({ step: 'verify', phase: checkoutPhase, status: verified.status, message: verified.body?.message });
                break;
              }
              await sleep(500);
            }
          }
        };

        const buyers = Array.from({ length: BUYERS }, () => buyer());
        await sleep(BEFORE_MS);
        phase = 'outage';
        const acceptedBefore = accepted.length;
        await proxy.cut();
        const cutAt = Date.now();
        await sleep(OUTAGE_MS);
        await proxy.restore();
        const restoredAt = Date.now();
        phase = 'after';
        await sleep(AFTER_MS);
        stopping = true;
        await Promise.all(buyers);

        // Full recovery: fresh checkouts, one after another, all succeed at the first try.
        const recovery: string[] = [];
        for (let i = 0; i < 5; i++) {
          const init = await post(gateway('/api/payments/initiate'), checkoutBody(bookId, 100_000 + i), {}, REQUEST_TIMEOUT_MS);
          expect(init.status).toBe(200);
          const paid = await post(gateway('/api/payments/test-mode/pay'), { razorpayOrderId: init.body!.data!.razorpayOrderId, outcome: 'success' });
          expect(paid.status).toBe(200);
          const verified = await post(gateway('/api/payments/verify'), {
            orderId: init.body!.data!.orderId,
            razorpayOrderId: init.body!.data!.razorpayOrderId,
            razorpayPaymentId: paid.body!.data!.razorpay_payment_id,
            razorpaySignature: paid.body!.data!.razorpay_signature,
          });
          expect(verified.status).toBe(200);
          recovery.push(verified.body!.data!.personaId);
        }

        // Every order the shop accepted (and any other it saw paid) gets its Persona.
        const one = async (q: string) => Number((await shop.db.query(q)).rows[0].n);
        const paidWithoutPersonaQuery = `
          SELECT count(*) AS n FROM orders.orders o
          WHERE o.payment_status = 'paid' AND NOT EXISTS (SELECT 1 FROM personalization.personas p WHERE p.persona_id = o.persona_id AND p.status = 'ready')`;
        const wanted = [...accepted.map((a) => a.personaId), ...recovery];
        const deadline = Date.now() + 120_000;
        let ready: number;
        for (;;) {
          ready = Number(
            (
              await shop.db.query(
                `SELECT count(*) AS n FROM orders.orders o JOIN personalization.personas p ON p.persona_id = o.persona_id
                 WHERE o.persona_id = ANY($1) AND o.persona_status = 'ready' AND p.status = 'ready'`,
                [wanted],
              )
            ).rows[0].n,
          );
          if ((ready === wanted.length && (await one(paidWithoutPersonaQuery)) === 0) || Date.now() > deadline) break;
          await sleep(1000);
        }

        // Consistency straight from the database.
        const orders = await one(`SELECT count(*) AS n FROM orders.orders`);
        const paidOrders = await one(`SELECT count(*) AS n FROM orders.orders WHERE payment_status = 'paid'`);
        const withoutProviderOrder = await one(`SELECT count(*) AS n FROM orders.orders WHERE razorpay_order_id IS NULL`);
        const paidBroken = await one(`
          SELECT count(*) AS n FROM orders.orders o
          WHERE o.payment_status = 'paid' AND (
            o.paid_at IS NULL OR o.razorpay_payment_id IS NULL
            OR (SELECT count(*) FROM orders.outbox e WHERE e.type = 'order.paid' AND e.envelope->'payload'->>'orderId' = o.id::text) <> 1
            OR NOT EXISTS (SELECT 1 FROM orders.payment_attempts a WHERE a.order_id = o.id AND a.outcome = 'paid'))`);
        const unpaidWithEvent = await one(`
          SELECT count(*) AS n FROM orders.outbox e
          WHERE e.type = 'order.paid' AND NOT EXISTS (
            SELECT 1 FROM orders.orders o WHERE o.id::text = e.envelope->'payload'->>'orderId' AND o.payment_status = 'paid')`);
        const paidWithoutPersona = await one(paidWithoutPersonaQuery);

        const during = seen.filter((s) => s.phase === 'outage');
        const statuses = (list: Seen[]) =>
          Object.entries(list.reduce<Record<string, number>>((m, s) => ((m[s.status || s.error || '?'] = (m[s.status || s.error || '?'] ?? 0) + 1), m), {}))
            .map(([k, v]) => `${k}×${v}`)
            .join(' ');
        const unanswered = seen.filter((s) => s.status === 0);
        const fiveHundreds = seen.filter((s) => s.status >= 500 && s.status !== 503);
        const unclear503 = seen.filter(
          (s) => s.status === 503 && !(s.body && s.body.statusCode === 503 && typeof s.body.message === 'string' && s.body.message.length > 0),
        );
        const slowest = Math.max(...seen.map((s) => s.ms));
        const firstOkAfter = seen.filter((s) => s.phase === 'after' && s.status === 200).length;
        const sample503 = seen.find((s) => s.status === 503 && s.body?.code === 'DATABASE_UNAVAILABLE')?.body ?? seen.find((s) => s.status === 503)?.body;
        const codes503 = Object.entries(
          seen.filter((s) => s.status === 503).reduce<Record<string, number>>((m, s) => ((m[s.body?.code ?? '-'] = (m[s.body?.code ?? '-'] ?? 0) + 1), m), {}),
        )
          .map(([k, v]) => `${k}×${v}`)
          .join(' ');

        process.stdout.write(
          `\nFAULTS scenario 2 (PostgreSQL down ${Math.round((restoredAt - cutAt) / 1000)} s): ${seen.length} answers; during the outage ${statuses(during)}; ` +
            `500s ${fiveHundreds.length}, unanswered ${unanswered.length}, slowest ${slowest} ms; ` +
            `orders ${orders} (paid ${paidOrders}; half-written: ${paidBroken} paid without their event/attempt, ${unpaidWithEvent} events without a paid order, ${withoutProviderOrder} without a payment order); ` +
            `accepted ${accepted.length} (${acceptedBefore} before the cut) + ${recovery.length} after, Personas ready ${ready}/${wanted.length}, paid without a Persona ${paidWithoutPersona}; ` +
            `503 codes ${codes503}, e.g. ${JSON.stringify(sample503 ? { message: sample503.message, code: sample503.code } : null)} (${Math.round((Date.now() - started) / 1000)} s)\n`,
        );

        const diagnosis = `\nanswers: ${statuses(seen)}\nunanswered: ${JSON.stringify(unanswered.slice(0, 5))}\n5xx: ${JSON.stringify(fiveHundreds.slice(0, 5))}\nfailed checkouts: ${JSON.stringify(failedCheckouts.slice(0, 10))}\n${shop.recentLogs(40)}`;
        expect({ fiveHundreds: fiveHundreds.length, unanswered: unanswered.length, unclear503: unclear503.length, diagnosis: '' }).toEqual({
          fiveHundreds: 0,
          unanswered: 0,
          unclear503: 0,
          diagnosis: fiveHundreds.length + unanswered.length + unclear503.length ? diagnosis : '',
        });
        expect(during.some((s) => s.status === 503)).toBe(true);
        expect(acceptedBefore).toBeGreaterThan(0);
        expect(firstOkAfter).toBeGreaterThan(0);
        expect({ paidBroken, unpaidWithEvent, withoutProviderOrder }).toEqual({ paidBroken: 0, unpaidWithEvent: 0, withoutProviderOrder: 0 });
        expect(ready).toBe(wanted.length);
        expect(paidWithoutPersona).toBe(0);
        expect(proxy.accepted).toBeGreaterThan(0);
      }, 300_000);
    });
  });
});
