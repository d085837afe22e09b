// Fault scenario 1: 500 orders paid through the gateway (test-mode payment
// path: initiate → pay at the stand-in → verify) while the personalisation
// worker is killed with SIGKILL three times, RabbitMQ is restarted once and
// the orders service, whose outbox relay publishes order.paid, is killed once.
// It must end with one Persona per paid order, each generated exactly once,
// none lost, and exactly one Persona-ready e-mail per order; the counts are
// printed on one line. FAULTS_ORDERS, FAULTS_CONCURRENCY and FAULTS_RATE
// (checkouts started per second) change the load; FAULTS_VERBOSE=1 echoes the
// services' logs.
import { once } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { connect } from 'amqplib';
import { describeWithPostgres, describeWithRabbit } from '@persona/test-kit';
import { parseMail } from '../test/support/shop';
import { buyUnderFire } from './support/buyers';
import {
  addSmallBook,
  describeWithRabbitmqctl,
  restartBroker,
  sleep,
  startBrokerIfStopped,
  startFaultShop,
  untilPersonaPathQuiet,
  type FaultShop,
} from './support/cluster';

const ORDERS = Number(process.env.FAULTS_ORDERS ?? 500);
const RABBIT_DOWN_MS = 4000;

describeWithPostgres()('fault suite', () => {
  describeWithRabbit()('on the real PostgreSQL and RabbitMQ', () => {
    describeWithRabbitmqctl()(`scenario 1: ${ORDERS} paid orders through SIGKILLs and a broker restart`, () => {
      let shop: FaultShop;
      let books: string[];

      beforeAll(async () => {
        shop = await startFaultShop({
          label: 'fire',
          serviceEnv: {
            // 'making persona' lines tell the test when a Persona is being made, to kill the worker right then.
            personalization: { LOG_LEVEL: 'info' },
          },
        });
        books = [await addSmallBook(shop, 'The Short Lighthouse'), await addSmallBook(shop, 'The Short Harbour')];
      }, 180_000);

      afterAll(async () => {
        // Never leave the shared broker stopped, whatever happened.
        await startBrokerIfStopped();
        await shop?.close();
      }, 120_000);

      it('ends with one Persona per paid order, each generated once, none lost, one e-mail each', async () => {
        const started = Date.now();
        const run = buyUnderFire(shop, books, { orders: ORDERS, label: 'fire' });

        // The faults, spread over the run by the number of orders paid so far.
        const faults: string[] = [];
        const at = async (fraction: number) => {
          while (run.paid() < ORDERS * fraction) await sleep(100);
        };
        const killPersonalization = async () => {
          // Killed while it makes a Persona (or after 10 s without one).
          const mid = await shop.nextLog('personalization', (l) => l.includes('"msg":"making persona"'), 10_000);
          const child = shop.shop.processes.personalization!;
          const exited = once(child, 'exit');
          child.kill('SIGKILL');
          await exited;
          faults.push(`personalization SIGKILL${mid ? ' mid-Persona' : ''} at ${run.paid()}`);
          await shop.shop.restart('personalization');
        };
        const restartRabbit = async () => {
          const from = run.paid();
          faults.push(`${await restartBroker(RABBIT_DOWN_MS)} at ${from}`);
        };
        const killOrders = async () => {
          // Killed while its relay has order.paid events to publish (or after 5 s without any).
          let pending = { n: 0, claimed: 0 };
          for (const until = Date.now() + 5000; Date.now() < until; await sleep(5)) {
            const { rows } = await shop.db.query(`SELECT count(*) AS n, count(locked_until) AS claimed FROM orders.outbox WHERE published_at IS NULL`);
            pending = { n: Number(rows[0].n), claimed: Number(rows[0].claimed) };
            if (pending.n > 0) break;
          }
          const child = shop.shop.processes.orders!;
          const exited = once(child, 'exit');
          child.kill('SIGKILL');
          await exited;
          faults.push(`orders (outbox relay) SIGKILL at ${run.paid()} with ${pending.n} events unpublished (${pending.claimed} being published)`);
          await shop.shop.restart('orders');
        };
        const chaos = (async () => {
          await at(0.1);
          await killPersonalization();
          await at(0.3);
          await restartRabbit();
          await at(0.45);
          await killPersonalization();
          await at(0.6);
          await killOrders();
          await at(0.8);
          await killPersonalization();
        })();

        const results = await Promise.allSettled([run.done, chaos]);
        const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failures.length > 0) throw new Error(`${failures.map((f) => (f.reason as Error).message).join('\n')}\n${shop.recentLogs()}`);
        const purchases = await run.done;
        const boughtAt = Date.now();

        // Wait until every paid order has its Persona and its e-mail written.
        const one = async (q: string) => Number((await shop.db.query(q)).rows[0].n);
        const emlFiles = async () => (await readdir(shop.mailDir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
        const deadline = Date.now() + 300_000;
        let personasDoneAt = 0;
        for (;;) {
          const paid = await one(`SELECT count(*) AS n FROM orders.orders WHERE payment_status = 'paid'`);
          const made = await one(`SELECT count(*) AS n FROM personalization.personas WHERE status = 'ready'`);
          const ready = await one(`SELECT count(*) AS n FROM orders.orders WHERE payment_status = 'paid' AND persona_status = 'ready'`);
          const sent = await one(`SELECT count(*) AS n FROM orders.emails WHERE kind = 'persona-ready' AND sent_at IS NOT NULL`);
          const confirmed = await one(`SELECT count(*) AS n FROM orders.emails WHERE kind = 'order-confirmed' AND sent_at IS NOT NULL`);
          const files = (await emlFiles()).length;
          if (!personasDoneAt && made >= paid) personasDoneAt = Date.now();
          // Each order's Persona-ready e-mail, and its confirmation when that went out on its own (a
          // Persona ready within the minute is told in one e-mail that is the receipt too). Waiting
          // for two e-mails an order, as before that, waited out the whole deadline.
          if ((ready === paid && sent === paid && files >= paid + confirmed) || Date.now() > deadline) break;
          await sleep(1000);
        }
        const allDoneAt = Date.now();

        await untilPersonaPathQuiet(shop, deadline);
        await sleep(2000); // a message handed out just now finishes
        const quietAt = Date.now();

        // The counts, straight from the databases and the mail folder.
        const paidOrders = await one(`SELECT count(*) AS n FROM orders.orders WHERE payment_status = 'paid'`);
        const personasReady = await one(`SELECT count(*) AS n FROM personalization.personas WHERE status = 'ready'`);
        const personasFailed = await one(`SELECT count(*) AS n FROM personalization.personas WHERE status <> 'ready'`);
        // A Persona is recorded ready together with its persona.ready event (one transaction), and only
        // the first time; a second generation would be a second event for the same Persona.
        const generations = (
          await shop.db.query(`
            SELECT count(*) FILTER (WHERE n = 1) AS once, count(*) FILTER (WHERE n > 1) AS more
            FROM (SELECT envelope->'payload'->>'personaId' AS persona_id, count(*) AS n
                  FROM personalization.outbox WHERE type = 'persona.ready' GROUP BY 1) g`)
        ).rows[0];
        const generatedOnce = Number(generations.once);
        const generatedMore = Number(generations.more);
        const orderPaidTwice = await one(`
          SELECT count(*) AS n FROM (SELECT envelope->'payload'->>'orderId' FROM orders.outbox WHERE type = 'order.paid' GROUP BY 1 HAVING count(*) > 1) d`);
        const lost = await one(`
          SELECT count(*) AS n FROM orders.orders o
          WHERE o.payment_status = 'paid' AND (o.persona_status <> 'ready'
            OR NOT EXISTS (SELECT 1 FROM personalization.personas p WHERE p.persona_id = o.persona_id AND p.status = 'ready'))`);
        const emailRows = await one(`SELECT count(*) AS n FROM orders.emails WHERE kind = 'persona-ready'`);
        const confirmationRows = await one(`SELECT count(*) AS n FROM orders.emails WHERE kind = 'order-confirmed'`);
        // A Persona ready within the minute after payment is told in one e-mail that is the receipt too.
        const readyReceipts = await one(`SELECT count(*) AS n FROM orders.emails WHERE kind = 'persona-ready' AND subject LIKE 'Order confirmed:%'`);
        const ordersWithoutOneReceipt = await one(`
          SELECT count(*) AS n FROM orders.orders o
          WHERE o.payment_status = 'paid' AND (SELECT count(*) FROM orders.emails e WHERE e.order_id = o.id
            AND (e.kind = 'order-confirmed' OR (e.kind = 'persona-ready' AND e.subject LIKE 'Order confirmed:%'))) <> 1`);
        const perPersona = new Map<string, number>();
        const files = await emlFiles();
        for (const file of files) {
          // The Persona-ready e-mails (the ones with its download); a confirmation sent on its own is another file.
          const { text } = parseMail(await readFile(path.join(shop.mailDir, file), 'utf8'));
          if (!text.includes('/download')) continue;
          const id = /\/api\/personas\/(PRS-[0-9A-Z-]+)\/download/.exec(text)?.[1] ?? `unreadable:${file}`;
          perPersona.set(id, (perPersona.get(id) ?? 0) + 1);
        }
        const duplicatedEmails = [...perPersona.values()].reduce((sum, c) => sum + Math.max(0, c - 1), 0);
        const paidIds: string[] = (await shop.db.query(`SELECT persona_id FROM orders.orders WHERE payment_status = 'paid'`)).rows.map((r) => r.persona_id);
        const withoutEmail = paidIds.filter((id) => !perPersona.has(id)).length;
        const pdfs = (await readdir(shop.personasDir)).filter((f) => f.endsWith('.pdf')).length;
        const deadLetters: Record<string, number> = {};
        const amqp = await connect(shop.amqpUrl);
        try {
          const channel = await amqp.createChannel();
          for (const q of ['personalization.orders.dlq', 'orders.personas.dlq']) deadLetters[q] = (await channel.checkQueue(q)).messageCount;
        } finally {
          await amqp.close();
        }
        const builds = shop.logCount('personalization', 'making persona');
        const seconds = Math.round((Date.now() - started) / 1000);

        process.stdout.write(
          `\nFAULTS scenario 1: ${paidOrders} paid orders → ${personasReady} Personas, ${generatedOnce} generated exactly once (${generatedMore} more than once), ` +
            `${lost} lost, ${duplicatedEmails} duplicated e-mails (${files.length} e-mails, ${withoutEmail} missing; receipts: ${confirmationRows} confirmations, ${readyReceipts} in the ready e-mail) ` +
            `| faults: ${faults.join('; ')} ` +
            `| buyers' ${run.summary()} ` +
            `| PDF files ${pdfs}, failed ${personasFailed}, dead letters ${Object.values(deadLetters).reduce((a, b) => a + b, 0)}, PDF builds started ${builds} (a message redelivered after a kill is built again; only one is recorded) ` +
            `| ${seconds} s (orders paid at ${Math.round((boughtAt - started) / 1000)} s, Personas made at ${Math.round(((personasDoneAt || allDoneAt) - started) / 1000)} s, ` +
            `orders told and e-mails written at ${Math.round((allDoneAt - started) / 1000)} s, nothing left in flight at ${Math.round((quietAt - started) / 1000)} s)\n`,
        );

        const diagnosis = lost || duplicatedEmails || withoutEmail ? `\n${shop.recentLogs(80)}` : '';
        expect({
          purchases: purchases.length,
          paidOrders,
          personasReady,
          generatedOnce,
          generatedMore,
          lost,
          duplicatedEmails,
          withoutEmail,
          diagnosis,
        }).toEqual({
          purchases: ORDERS,
          paidOrders: ORDERS,
          personasReady: ORDERS,
          generatedOnce: ORDERS,
          generatedMore: 0,
          lost: 0,
          duplicatedEmails: 0,
          withoutEmail: 0,
          diagnosis: '',
        });
        expect(new Set(purchases.map((p) => p.personaId)).size).toBe(ORDERS);
        expect({
          emailRows,
          receipts: confirmationRows + readyReceipts,
          ordersWithoutOneReceipt,
          emlFiles: files.length,
          pdfs,
          personasFailed,
          orderPaidTwice,
          deadLetters,
        }).toEqual({
          emailRows: ORDERS,
          // Each order's receipt once: its confirmation, or the ready e-mail when the Persona came first.
          receipts: ORDERS,
          ordersWithoutOneReceipt: 0,
          // Each order's Persona-ready e-mail, and its confirmation when that went out on its own.
          emlFiles: ORDERS + confirmationRows,
          pdfs: ORDERS,
          personasFailed: 0,
          orderPaidTwice: 0,
          deadLetters: { 'personalization.orders.dlq': 0, 'orders.personas.dlq': 0 },
        });
        expect(faults).toHaveLength(5);
      }, 600_000);
    });
  });
});
