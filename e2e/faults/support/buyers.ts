// The buyers of the fault scenarios: each buys one Persona through the gateway the way a patient
// person does (initiate → pay at the test-mode stand-in → verify), repeating a request that got
// no answer or a 5xx, and starting a new checkout when a payment order was lost; CONCURRENCY at
// once, at most RATE checkouts started a second. FAULTS_CONCURRENCY and FAULTS_RATE change them.
import { checkoutBody, post, sleep, type Answer, type FaultShop } from './cluster';

export interface Purchase {
  orderId: string;
  personaId: string;
}

export interface BuyersRun {
  /** Purchases paid so far (the faults are timed by it). */
  paid(): number;
  /** Every buyer's purchase, once all have paid (rejects with the first buyer that could not). */
  done: Promise<Purchase[]>;
  /** The buyers' retries and restarted checkouts, for the scenario's line. */
  summary(): string;
}

export interface BuyersOptions {
  orders: number;
  /** Makes the idempotency keys of this run its own. */
  label: string;
  concurrency?: number;
  rate?: number;
}

export function buyUnderFire(shop: FaultShop, books: string[], options: BuyersOptions): BuyersRun {
  const concurrency = options.concurrency ?? Number(process.env.FAULTS_CONCURRENCY ?? 12);
  const rate = options.rate ?? Number(process.env.FAULTS_RATE ?? 10);
  const started = Date.now();
  const url = (p: string) => `${shop.url}${p}`;
  const runId = started.toString(36);
  const retries = { initiate: 0, pay: 0, verify: 0 };
  let abandoned = 0;
  let paidByWebhookOnly = 0;
  const transient = (a: Answer) => a.status === 0 || a.status >= 500 || a.status === 429;

  /** Repeats a request while the answer is a transient failure (no answer, 5xx), as a patient client does. */
  async function untilAnswered(step: keyof typeof retries, send: () => Promise<Answer>): Promise<Answer> {
    const end = Date.now() + 120_000;
    let delay = 200;
    for (;;) {
      const answer = await send();
      if (!transient(answer) || Date.now() > end) return answer;
      retries[step]++;
      await sleep(delay);
      delay = Math.min(2000, delay * 2);
    }
  }

  /** One buyer's purchase, retried through the faults until it is paid. */
  async function buy(n: number): Promise<Purchase> {
    for (let checkout = 1; checkout <= 5; checkout++) {
      // The Idempotency-Key makes a retried initiate answer the same order.
      const key = `${options.label}-${runId}-${n}-${checkout}`;
      const init = await untilAnswered('initiate', () =>
        post(url('/api/payments/initiate'), checkoutBody(books[n % books.length]!, n), { 'idempotency-key': key }),
      );
      if (init.status !== 200) throw new Error(`initiate for buyer ${n} answered ${init.status}: ${init.body?.message ?? init.error}`);
      const { orderId, razorpayOrderId } = init.body!.data!;
      let payment: Record<string, string> | undefined;
      let unsure = false;
      for (let attempt = 1; ; attempt++) {
        const paid = await post(url('/api/payments/test-mode/pay'), { razorpayOrderId, outcome: 'success' });
        if (paid.status === 200) {
          payment = paid.body!.data!;
          break;
        }
        // Without a shared stand-in (REDIS_URL), a killed orders process forgot this payment order.
        if (paid.status === 404) break;
        if (!transient(paid) || attempt > 60) throw new Error(`pay for buyer ${n} answered ${paid.status}: ${paid.body?.message ?? paid.error}`);
        unsure = true;
        retries.pay++;
        await sleep(Math.min(2000, 200 * attempt));
      }
      if (!payment) {
        // A lost answer may still have paid: then Razorpay's webhook moved the order to paid, as when a tab is closed.
        const row = unsure ? (await shop.db.query(`SELECT persona_id, payment_status FROM orders.orders WHERE id = $1`, [orderId])).rows[0] : undefined;
        if (row?.payment_status === 'paid') {
          paidByWebhookOnly++;
          return { orderId, personaId: row.persona_id };
        }
        abandoned++;
        continue; // a new checkout; this order stays unpaid
      }
      const verified = await untilAnswered('verify', () =>
        post(url('/api/payments/verify'), {
          orderId,
          razorpayOrderId,
          razorpayPaymentId: payment.razorpay_payment_id,
          razorpaySignature: payment.razorpay_signature,
        }),
      );
      if (verified.status !== 200) throw new Error(`verify for buyer ${n} answered ${verified.status}: ${verified.body?.message ?? verified.error}`);
      return { orderId, personaId: verified.body!.data!.personaId };
    }
    throw new Error(`buyer ${n} could not pay after 5 checkouts`);
  }

  const purchases: Purchase[] = [];
  let next = 0;
  const buyers = Array.from({ length: concurrency }, async () => {
    for (;;) {
      const n = next++;
      if (n >= options.orders) return;
      const due = started + (n * 1000) / rate;
      if (due > Date.now()) await sleep(due - Date.now());
      purchases.push(await buy(n));
    }
  });
  return {
    paid: () => purchases.length,
    done: Promise.all(buyers).then(() => purchases),
    summary: () =>
      `retries: initiate ${retries.initiate}, pay ${retries.pay}, verify ${retries.verify}; ${abandoned} checkouts restarted, ${paidByWebhookOnly} paid by webhook alone`,
  };
}
