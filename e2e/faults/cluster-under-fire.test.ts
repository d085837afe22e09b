// Fault scenario 4 (issue 25): the cluster (`startCluster`: two processes of every service, two
// gateways behind nginx, on PostgreSQL, RabbitMQ, Redis and an S3 store) takes 500 paid orders
// while one replica of each service (and a gateway) is killed with SIGKILL and started again, and
// the broker restarts; the e-mails go to an SMTP server that answers some messages slower than the
// mail relay's 30-second lease. It must end with every Persona made once, none lost, no e-mail
// twice, every download answering through either gateway, the rate limit counted once across the
// gateways, and each leader-only job run by one replica at a time. FAULTS_CLUSTER_ORDERS,
// FAULTS_CONCURRENCY and FAULTS_RATE change the load; FAULTS_VERBOSE=1 echoes the services' logs.
import { once } from 'node:events';
import http from 'node:http';
import { describeWithPostgres, describeWithPrograms, describeWithRabbit, describeWithRedis, NGINX } from '@persona/test-kit';
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
import { startSmtpSink, type SmtpSink } from './support/smtp-sink';

const ORDERS = Number(process.env.FAULTS_CLUSTER_ORDERS ?? 500);
const RABBIT_DOWN_MS = 4000;
/** The gateways' shared limit per client a minute: above what the buyers (one address) send, checked at the end. */
const RATE_LIMIT = 4000;
/** Longer than the mail relay's lease (30 s): the relay must keep the e-mail while its server is slow. */
const SLOW_SMTP_MS = 35_000;

describeWithPostgres()('fault suite', () => {
  describeWithRabbit()('on the real PostgreSQL, RabbitMQ and Redis', () => {
    describeWithRedis()('with nginx', () => {
      describeWithPrograms([NGINX], 'the cluster scenario (its gateways run behind nginx)')('and rabbitmqctl', () => {
        describeWithRabbitmqctl()(`scenario 4: ${ORDERS} paid orders on the cluster while a replica of each service is killed`, () => {
          let shop: FaultShop;
          let smtp: SmtpSink;
          let books: string[];

          beforeAll(async () => {
            smtp = await startSmtpSink();
            // Three e-mails of the run answered slower than the lease, one of them early.
            const slow = new Set([5, Math.floor(ORDERS / 2), ORDERS - 1]);
            smtp.delayFor = (n) => (slow.has(n) ? SLOW_SMTP_MS : 0);
            shop = await startFaultShop({
              label: 'cluster',
              cluster: true,
              serviceEnv: {
                personalization: { LOG_LEVEL: 'info' },
                orders: { SMTP_URL: smtp.url, LOG_LEVEL: 'info' },
                gateway: { RATE_LIMIT_MAX: String(RATE_LIMIT) },
              },
            });
            books = [await addSmallBook(shop, 'The Short Lighthouse'), await addSmallBook(shop, 'The Short Harbour')];
          }, 240_000);

          afterAll(async () => {
            await startBrokerIfStopped();
            await shop?.close();
            await smtp?.close();
          }, 120_000);

          it('makes every Persona once, loses nothing, sends no e-mail twice, and serves every download through either gateway', async () => {
            const started = Date.now();
            const faults: string[] = [];
            let leaderKilledAt = 0;
            const kill = async (name: string, when: () => Promise<unknown> = async () => undefined) => {
              await when();
              const child = shop.shop.processes[name]!;
              const exited = once(child, 'exit');
              child.kill('SIGKILL');
              await exited;
              const down = Date.now();
              await shop.shop.restart(name);
              faults.push(`${name} SIGKILL at ${run.paid()} paid, back in ${((Date.now() - down) / 1000).toFixed(1)} s`);
            };
            const run = buyUnderFire(shop, books, { orders: ORDERS, label: 'cluster' });
            const at = async (fraction: number) => {
              while (run.paid() < ORDERS * fraction) await sleep(100);
            };
            const chaos = (async () => {
              await at(0.1);
              await kill('personalization-1', () => shop.nextLog('personalization-1', (l) => l.includes('"msg":"making persona"'), 10_000));
              await at(0.2);
              await kill('gateway-1');
              await at(0.3);
              const from = run.paid();
              faults.push(`${await restartBroker(RABBIT_DOWN_MS)} at ${from} paid`);
              await at(0.45);
              await kill('catalogue-1');
              await at(0.55);
              // The orders replica that leads (the reconciler's): its follower takes the lead over.
              const leader = await leaderOf(shop, 'orders');
              leaderKilledAt = Date.now();
              await kill(leader);
              await at(0.65);
              await kill('admin-1');
              await at(0.8);
              await kill('personalization-2', () => shop.nextLog('personalization-2', (l) => l.includes('"msg":"making persona"'), 10_000));
            })();
            const results = await Promise.allSettled([run.done, chaos]);
            const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
            if (failures.length > 0) throw new Error(`${failures.map((f) => (f.reason as Error).message).join('\n')}\n${shop.recentLogs()}`);
            const purchases = await run.done;
            const boughtAt = Date.now();

            // Until every paid order has its Persona, and its e-mails are at the SMTP server (a slow one included).
            const one = async (q: string) => Number((await shop.db.query(q)).rows[0].n);
            const deadline = Date.now() + 300_000;
            for (;;) {
              const paid = await one(`SELECT count(*) AS n FROM orders.orders WHERE payment_status = 'paid'`);
              const ready = await one(`SELECT count(*) AS n FROM orders.orders WHERE payment_status = 'paid' AND persona_status = 'ready'`);
              const unsent = await one(`SELECT count(*) AS n FROM orders.emails WHERE sent_at IS NULL`);
              if ((ready === paid && unsent === 0) || Date.now() > deadline) break;
              await sleep(1000);
            }
            // Nothing in flight: the outboxes published, the queues empty, the slow SMTP answers in.
            await untilPersonaPathQuiet(shop, deadline);
            await sleep(Math.max(2000, SLOW_SMTP_MS - (Date.now() - boughtAt)));
            const quietAt = Date.now();

            const paidOrders = await one(`SELECT count(*) AS n FROM orders.orders WHERE payment_status = 'paid'`);
            const personasReady = await one(`SELECT count(*) AS n FROM personalization.personas WHERE status = 'ready'`);
            const generations = (
              await shop.db.query(`
                SELECT count(*) FILTER (WHERE n = 1) AS once, count(*) FILTER (WHERE n > 1) AS more
                FROM (SELECT envelope->'payload'->>'personaId' AS persona_id, count(*) AS n
                      FROM personalization.outbox WHERE type = 'persona.ready' GROUP BY 1) g`)
            ).rows[0];
            const lost = await one(`
              SELECT count(*) AS n FROM orders.orders o
              WHERE o.payment_status = 'paid' AND (o.persona_status <> 'ready'
                OR NOT EXISTS (SELECT 1 FROM personalization.personas p WHERE p.persona_id = o.persona_id AND p.status = 'ready'))`);

            // Every e-mail row sent reached the SMTP server once, by its Message-ID (<id@persona-books>).
            const rows: Array<{ id: string }> = (await shop.db.query(`SELECT id FROM orders.emails WHERE sent_at IS NOT NULL`)).rows;
            const received = new Map<string, number>();
            for (const mail of smtp.messages) received.set(mail.messageId, (received.get(mail.messageId) ?? 0) + 1);
            const emailsTwice = [...received.values()].filter((n) => n > 1).length;
            const emailsMissing = rows.filter((r) => !received.has(`<${r.id}@persona-books>`)).length;
            const ordersWithoutReadyEmail = await one(`
              SELECT count(*) AS n FROM orders.orders o WHERE o.payment_status = 'paid'
                AND NOT EXISTS (SELECT 1 FROM orders.emails e WHERE e.order_id = o.id AND e.kind = 'persona-ready' AND e.sent_at IS NOT NULL)`);

            // Every Persona's PDF through each gateway, past nginx: the files are in the shared store.
            const gateways = shop.shop.replicas.gateway.map((name) => shop.shop.addresses[name]!);
            let downloadsFailed = 0;
            const downloadFailures: string[] = [];
            let nextDownload = 0;
            await Promise.all(
              Array.from({ length: 8 }, async () => {
                for (;;) {
                  const n = nextDownload++;
                  const p = purchases[n];
                  if (!p) return;
                  // Each buyer from an address of their own (the gateways trust the proxy's header), as buyers
                  // are: the lookup limit per client would refuse one address asking for every Persona.
                  const buyer = { 'x-forwarded-for': `10.${(n >> 8) & 255}.${n & 255}.7` };
                  const bodies: Buffer[] = [];
                  for (const gateway of gateways) {
                    const res = await fetch(`${gateway}/api/personas/${p.personaId}/download`, { headers: buyer }).catch(
                      (err: Error) => ({ ok: false, status: err.message }) as const,
                    );
                    const body = res.ok ? Buffer.from(await (res as Response).arrayBuffer()) : null;
                    if (!body || body.subarray(0, 5).toString('latin1') !== '%PDF-') {
                      downloadsFailed += 1;
                      if (downloadFailures.length < 5) downloadFailures.push(`${p.personaId} via ${gateway}: ${res.status}`);
                    } else bodies.push(body);
                  }
                  if (bodies.length === 2 && !bodies[0]!.equals(bodies[1]!)) {
                    downloadsFailed += 1;
                    downloadFailures.push(`${p.personaId}: the two gateways served different files`);
                  }
                }
              }),
            );

            // The limit counts a client once across the gateways: RATE_LIMIT requests in all through nginx (which
            // hands them to the gateways in turn), then 429 from either. A client of its own: another loopback address.
            const client = `127.0.${1 + Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;
            let firstRefusal = -1;
            const servedBy = new Set<string>();
            for (let i = 0; i < RATE_LIMIT + 2; i += 1) {
              const status = await getFrom(`${shop.url}/api/categories?rl=${i % 7}`, client);
              if (status === 429 && firstRefusal < 0) firstRefusal = i;
            }
            const publicPort = new URL(shop.url).port;
            for (const line of await shop.accessLog()) {
              if (line.startsWith(`${client} `) && line.includes(`server=${publicPort} `)) servedBy.add(/upstream=(\S+)/.exec(line)?.[1] ?? '?');
            }

            // The leader-only work ran in one orders replica at a time: every reconciler run logged by its replica,
            // and the runs of two replicas never overlap in time.
            const leads = shop.logged(LEADS).filter((l) => l.process.startsWith('orders-'));
            const leaders = leads.map((l) => `${l.process} at ${Math.round((l.at - started) / 1000)} s`).join(', ');

            const seconds = Math.round((Date.now() - started) / 1000);
            process.stdout.write(
              `\nFAULTS scenario 4 (cluster): ${paidOrders} paid orders → ${personasReady} Personas, ${generations.once} generated once (${generations.more} more), ${lost} lost ` +
                `| e-mails: ${rows.length} sent, ${smtp.messages.length} received (${smtp.delayed} answered after ${SLOW_SMTP_MS / 1000} s, past the relay's lease), ${emailsTwice} twice, ${emailsMissing} missing ` +
                `| downloads: ${purchases.length * gateways.length} through ${gateways.length} gateways, ${downloadsFailed} failed ` +
                `| rate limit ${RATE_LIMIT}/min across ${servedBy.size} gateways: first 429 at request ${firstRefusal + 1} ` +
                `| leaders: ${leaders} ` +
                `| faults: ${faults.join('; ')} | buyers: ${run.summary()} ` +
                `| ${seconds} s (orders paid at ${Math.round((boughtAt - started) / 1000)} s, quiet at ${Math.round((quietAt - started) / 1000)} s)\n`,
            );

            expect({ paidOrders, personasReady, generatedOnce: Number(generations.once), generatedMore: Number(generations.more), lost }).toEqual({
              paidOrders: ORDERS,
              personasReady: ORDERS,
              generatedOnce: ORDERS,
              generatedMore: 0,
              lost: 0,
            });
            expect({ emailsTwice, emailsMissing, ordersWithoutReadyEmail, received: smtp.messages.length, slowAnswers: smtp.delayed }).toEqual({
              slowAnswers: 3,
              emailsTwice: 0,
              emailsMissing: 0,
              ordersWithoutReadyEmail: 0,
              received: rows.length,
            });
            expect({ downloadsFailed, downloadFailures }).toEqual({ downloadsFailed: 0, downloadFailures: [] });
            expect({ firstRefusal, gateways: servedBy.size }).toEqual({ firstRefusal: RATE_LIMIT, gateways: 2 });
            // One orders replica led from the start; once it was killed, one replica (the other, or itself restarted:
            // whichever asked first) took the lead within a minute, and nothing else ever did.
            expect(leads).toHaveLength(2);
            expect(leads[1]!.at).toBeGreaterThan(leaderKilledAt);
            expect(leads[1]!.at - leaderKilledAt).toBeLessThan(60_000);
            expect(faults).toHaveLength(7);
          }, 1_200_000);
        });
      });
    });
  });
});

const LEADS = 'this replica leads: it runs the one-at-a-time work';

/** The orders replica that took the lead last (each replica logs it as it does). */
async function leaderOf(shop: FaultShop, service: string): Promise<string> {
  for (let i = 0; i < 100; i += 1) {
    const last = shop
      .logged(LEADS)
      .filter((l) => l.process.startsWith(`${service}-`))
      .pop();
    if (last) return last.process;
    await sleep(200);
  }
  throw new Error(`no ${service} replica has said it leads`);
}

/** A GET from `localAddress` (a loopback address of its own: a client nginx tells apart); its status. */
function getFrom(url: string, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { localAddress, agent: false }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
  });
}
