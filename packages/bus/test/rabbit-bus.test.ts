import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import amqp, { type Channel, type ChannelModel } from 'amqplib';
import { describeWithPostgres, describeWithRabbit, TEST_AMQP_URL, TEST_DATABASE_URL, uniqueName } from '@persona/test-kit';
import { migrateToLatest, openDatabase, type Database } from '@persona/db';
import { sql } from 'kysely';
import { BusUnavailableError, createRabbitBus, outboxMigrations, queuesOf, type EventBus, type EventContext } from '../src';
import { simulateConnectionLoss } from '../src/rabbit-bus';
import { busContract, createEffectsTable, type BusFixture } from './contract';
import { envelope, sleep, waitFor } from './helpers';

// Needs both servers: the outbox and inbox run on the real PostgreSQL.
const withRabbit = describeWithRabbit();
const describeWithServers = withRabbit === describe ? describeWithPostgres() : withRabbit;

const ALL_TEST_DELAYS = [50, 100, 1000, 5000, 15000, 60000];

describeWithServers('RabbitMQ transport (outbox/inbox on PostgreSQL)', () => {
  const exchange = uniqueName('persona_events_test');
  const serviceSchema = uniqueName('svc');
  const queueNames: string[] = [];
  let serviceDatabase: Database<unknown>;
  let fixture: BusFixture;
  let admin: ChannelModel;
  let adminChannel: Channel;

  const newQueue = (prefix: string) => {
    const name = uniqueName(prefix);
    queueNames.push(name);
    return name;
  };

  beforeAll(async () => {
    serviceDatabase = openDatabase({ kind: 'postgres', url: TEST_DATABASE_URL, poolSize: 5 }, serviceSchema);
    await migrateToLatest(serviceDatabase, { getMigrations: async () => outboxMigrations });
    await createEffectsTable(serviceDatabase.db);
    const bus = createRabbitBus({ url: TEST_AMQP_URL, exchange, connectionName: 'persona-bus-test', reconnectDelayMs: { initial: 100, max: 1000 } });
    fixture = { bus, db: serviceDatabase.db };
    admin = await amqp.connect(TEST_AMQP_URL);
    adminChannel = await admin.createChannel();
    await waitFor(() => bus.isReady(), 'the connection');
  });

  afterAll(async () => {
    await fixture?.bus.close();
    if (adminChannel) {
      for (const queue of queueNames) for (const name of queuesOf(queue, ALL_TEST_DELAYS)) await adminChannel.deleteQueue(name);
      await adminChannel.deleteExchange(exchange);
      await admin.close();
    }
    if (serviceDatabase) {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(serviceSchema)} CASCADE`.execute(serviceDatabase.db);
      await serviceDatabase.close();
    }
  });

  describe('bus contract', () => {
    busContract(() => fixture, queueNames);
  });

  describe('RabbitMQ specifics', () => {
    it('declares durable quorum queues and publishes persistent, described messages', async () => {
      const queue = newQueue('t_props');
      await (await fixture.bus.subscribe({ queue, bindings: ['book.created'], handler: async () => undefined })).close();
      // Re-declaring with the same arguments passes only if the queue is the durable quorum queue we expect.
      await adminChannel.assertQueue(queue, {
        durable: true,
        arguments: { 'x-queue-type': 'quorum', 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': `${queue}.dlq` },
      });
      const event = envelope('book.created');
      await fixture.bus.publish(event);
      const msg = await adminChannel.get(queue, { noAck: false });
      expect(msg).not.toBe(false);
      if (!msg) return;
      expect(msg.fields.routingKey).toBe('book.created');
      expect(msg.properties).toMatchObject({
        deliveryMode: 2,
        contentType: 'application/json',
        messageId: event.id,
        type: 'book.created',
        correlationId: event.correlationId,
      });
      expect(typeof msg.properties.timestamp).toBe('number');
      expect(JSON.parse(msg.content.toString())).toEqual(event);
      adminChannel.ack(msg);
    });

    it('falls back to a classic durable queue where a quorum queue cannot be declared', async () => {
      const queue = newQueue('t_classic');
      // An existing classic queue of that name makes the quorum declaration fail (inequivalent x-queue-type).
      await adminChannel.assertQueue(queue, { durable: true, arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': `${queue}.dlq` } });
      const seen: string[] = [];
      const sub = await fixture.bus.subscribe({ queue, bindings: ['book.deleted'], handler: async (e) => void seen.push(e.id) });
      try {
        const event = envelope('book.deleted');
        await fixture.bus.publish(event);
        await waitFor(() => seen.length === 1, 'delivery through the classic queue');
        expect(seen).toEqual([event.id]);
      } finally {
        await sub.close();
      }
    });

    it('redelivers a confirmed message to a new consumer after the one holding it is SIGKILLed before acking', async () => {
      const queue = newQueue('t_kill');
      await (await fixture.bus.subscribe({ queue, bindings: ['order.paid'], handler: async () => undefined })).close();
      const event = envelope('order.paid', { orderId: 'o-kill' });
      await fixture.bus.publish(event); // resolved = confirmed by the broker

      const env = { ...process.env };
      delete env.NODE_OPTIONS;
      const child = spawn(process.execPath, [path.join(__dirname, 'fixtures/consume-and-hang.js'), TEST_AMQP_URL, queue], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env,
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      try {
        const received = await new Promise<{ received: string; redelivered: boolean }>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('the child consumer received nothing')), 8000);
          createInterface({ input: child.stdout! }).on('line', (line) => {
            const msg = JSON.parse(line) as { received?: string; redelivered?: boolean };
            if (msg.received) {
              clearTimeout(timer);
              resolve(msg as { received: string; redelivered: boolean });
            }
          });
          child.once('exit', () => reject(new Error('the child consumer exited early')));
        });
        expect(received).toEqual({ received: event.id, redelivered: false });
      } finally {
        child.kill('SIGKILL');
      }
      expect(await exited).toBe('SIGKILL');

      const seen: Array<{ id: string; ctx: EventContext }> = [];
      const sub = await fixture.bus.subscribe({ queue, bindings: ['order.paid'], handler: async (e, ctx) => void seen.push({ id: e.id, ctx }) });
      try {
        await waitFor(() => seen.length === 1, 'the redelivery');
        await sleep(100);
        expect(seen).toEqual([{ id: event.id, ctx: { attempt: 1, redelivered: true } }]);
      } finally {
        await sub.close();
      }
    });

    it('sends a malformed (non-JSON) message straight to the dead-letter queue', async () => {
      const queue = newQueue('t_malformed');
      const handled: string[] = [];
      const sub = await fixture.bus.subscribe({ queue, bindings: ['book.*'], handler: async (e) => void handled.push(e.id) });
      try {
        adminChannel.publish(exchange, 'book.created', Buffer.from('{not json'), { persistent: true, messageId: 'garbage-1', type: 'book.created' });
        await waitFor(async () => (await fixture.bus.deadLetters(queue)).length === 1, 'the dead letter');
        const [dead] = await fixture.bus.deadLetters(queue);
        expect(dead!.attempts).toBe(1);
        expect(dead!.lastError).toMatch(/^malformed message/);
        expect(dead!.event).toMatchObject({ id: 'garbage-1', type: 'book.created', payload: '{not json' });
        expect(handled).toEqual([]);
      } finally {
        await sub.close();
      }
    });

    it('reconnects after the connection drops: the subscription and publishing resume', async () => {
      const queue = newQueue('t_reconnect');
      const seen: string[] = [];
      const sub = await fixture.bus.subscribe({ queue, bindings: ['persona.ready'], handler: async (e) => void seen.push(e.id) });
      try {
        const before = envelope('persona.ready');
        await fixture.bus.publish(before);
        await waitFor(() => seen.includes(before.id), 'delivery before the drop');

        expect(simulateConnectionLoss(fixture.bus)).toBe(true);
        await waitFor(() => !fixture.bus.isReady(), 'the drop to be noticed', 15_000);
        // While disconnected, publishing fails fast (the outbox keeps the row and retries).
        const started = Date.now();
        await fixture.bus.publish(envelope('persona.ready')).then(
          () => undefined, // the reconnect may already have happened
          (err) => expect(err).toBeInstanceOf(BusUnavailableError),
        );
        expect(Date.now() - started).toBeLessThan(10_000);

        await waitFor(() => fixture.bus.isReady(), 'the reconnect', 15_000);
        const after = envelope('persona.ready');
        await fixture.bus.publish(after);
        await waitFor(() => seen.includes(after.id), 'delivery after the reconnect');
      } finally {
        await sub.close();
      }
    });
  });
});

describe('RabbitMQ transport without a broker', () => {
  it('creates without throwing, is not ready, and rejects publishes quickly', async () => {
    const bus: EventBus = createRabbitBus({ url: 'amqp://guest:guest@127.0.0.1:1', reconnectDelayMs: { initial: 60_000, max: 60_000 } });
    try {
      expect(bus.isReady()).toBe(false);
      const started = Date.now();
      await expect(bus.publish(envelope('book.created'))).rejects.toBeInstanceOf(BusUnavailableError);
      await expect(bus.publish(envelope('book.created'))).rejects.toBeInstanceOf(BusUnavailableError);
      // Without waiting for the next connection attempt, a minute away.
      expect(Date.now() - started).toBeLessThan(20_000);
      // A subscription is kept and starts once a connection exists.
      const sub = await bus.subscribe({ queue: 'never.started', bindings: ['#'], handler: async () => undefined });
      await sub.close();
    } finally {
      await bus.close();
    }
  });
});
