// A transport given the shop's event check refuses a wrong event on publish, and dead-letters a
// wrong message on consume at once, with the reason, without handing it to a handler.
import amqp from 'amqplib';
import { describeWithRabbit, TEST_AMQP_URL, uniqueName } from '@persona/test-kit';
import type { Database } from '@persona/db';
import { sql } from 'kysely';
import { createRabbitBus, EventRefusedError, queuesOf, type EventBus, type EventCheck } from '../src';
import { envelope, pgliteBus, waitFor } from './helpers';

/** Stands in for the contracts' eventProblem: a payload must say ok. */
const check: EventCheck = (message) => ((message as { payload?: { ok?: unknown } }).payload?.ok === true ? null : 'order.paid payload: /ok must be true');

async function expectChecked(bus: EventBus, queue: string, sendRaw: (body: object) => Promise<void>) {
  const handled: string[] = [];
  const subscription = await bus.subscribe({
    queue,
    bindings: ['order.*'],
    maxAttempts: 5,
    retryDelaysMs: [50],
    handler: async (event) => void handled.push(event.id),
  });
  try {
    const wrong = envelope('order.paid', { ok: 'yes' });
    await expect(bus.publish(wrong)).rejects.toBeInstanceOf(EventRefusedError);
    await expect(bus.publish(wrong)).rejects.toThrow('event refused: order.paid payload: /ok must be true');

    const right = envelope('order.paid', { ok: true });
    await bus.publish(right);
    await waitFor(() => handled.includes(right.id), 'the right event to be handled');

    // A wrong message that reached the queue some other way: dead-lettered on its first delivery.
    const smuggled = envelope('order.paid', { ok: false });
    await sendRaw(smuggled);
    await waitFor(async () => (await bus.deadLetters(queue)).length === 1, 'the wrong message to be dead-lettered');
    const [dead] = await bus.deadLetters(queue);
    expect(dead!.event.id).toBe(smuggled.id);
    expect(dead!.lastError).toBe('malformed message: order.paid payload: /ok must be true');
    expect(handled).toEqual([right.id]);
  } finally {
    await subscription.close();
  }
}

describe('the event check on the in-process bus', () => {
  let stack: Awaited<ReturnType<typeof pgliteBus>>;
  let database: Database<unknown>;
  let bus: EventBus;
  beforeAll(async () => {
    stack = await pgliteBus(check);
    ({ bus, database } = stack);
  });
  afterAll(() => stack.close());

  it('refuses a wrong event and dead-letters a wrong message with the reason', async () => {
    const queue = uniqueName('checked');
    await expectChecked(bus, queue, async (body) => {
      await sql`INSERT INTO bus_messages (queue, message_id, envelope) VALUES (${queue}, ${(body as { id: string }).id}, ${JSON.stringify(body)}::jsonb)`.execute(
        database.db,
      );
    });
  });
});

describeWithRabbit()('the event check on RabbitMQ', () => {
  const exchange = uniqueName('checked-exchange');
  const queue = uniqueName('checked');
  let bus: EventBus;
  let admin: amqp.ChannelModel;
  let channel: amqp.Channel;
  beforeAll(async () => {
    bus = createRabbitBus({ url: TEST_AMQP_URL, exchange, connectionName: 'persona-bus-check-test', check });
    admin = await amqp.connect(TEST_AMQP_URL);
    channel = await admin.createChannel();
    await waitFor(() => bus.isReady(), 'the connection');
  });
  afterAll(async () => {
    await bus.close();
    for (const name of queuesOf(queue, [50])) await channel.deleteQueue(name);
    await channel.deleteExchange(exchange);
    await admin.close();
  });

  it('refuses a wrong event and dead-letters a wrong message with the reason', async () => {
    await expectChecked(bus, queue, async (body) => {
      channel.publish(exchange, 'order.paid', Buffer.from(JSON.stringify(body)), { persistent: true, contentType: 'application/json' });
    });
  });
});
