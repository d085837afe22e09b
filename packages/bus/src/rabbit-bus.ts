// The RabbitMQ transport (amqplib), with none of its defaults trusted:
// durable topic exchange, durable quorum queues (classic as a fallback),
// persistent messages, publisher confirms, manual acks, prefetch, heartbeats,
// `error`/`close` listeners everywhere, reconnect with back-off that
// re-declares the topology and re-subscribes, and per-queue retry and
// dead-letter queues.
//
// Topology for a consumer queue Q bound to the exchange E:
//
//   E (topic, durable) --pattern--> Q (quorum) --> handler
//                                   ^    |  fails, attempt < max: confirmed copy (x-attempt+1), ack
//                                   |    +--> Q.retry.<ms> (classic, x-message-ttl <ms>)
//                                   |           | expires: dead-lettered via '' to Q
//                                   +-----------+
//                                        |  fails at max, or malformed: confirmed copy, ack
//                                        +--> Q.dlq (classic)  <-- also Q's x-dead-letter target for rejects
//
// One retry queue per distinct delay (queue-level TTL) rather than one retry
// queue with per-message `expiration`: RabbitMQ only expires messages at the
// head of a queue, so a 60 s message would hold back a 1 s one behind it.
import amqp, { type Channel, type ChannelModel, type ConfirmChannel, type ConsumeMessage, type GetMessage, type Options } from 'amqplib';
import type { EventEnvelope } from '@persona/contracts';
import { EVENTS_EXCHANGE } from '@persona/contracts';
import { eventLogger } from './event-logger';
import { SILENT_LOGGER } from './silent-logger';
import { errorMessage, resolveSpec, retryDelayFor, type ResolvedSpec } from './subscription-options';
import {
  BusUnavailableError,
  type BusLogger,
  type CloseOptions,
  type DeadLetter,
  type EventBus,
  type QueueDepth,
  type Subscription,
  type EventBinding,
  type SubscriptionSpec,
  EventRefusedError,
  type EventCheck,
} from './types';

export interface RabbitBusOptions {
  url: string;
  /** Default `persona.events`. */
  exchange?: string;
  logger?: BusLogger;
  /** Default 15. */
  heartbeatSeconds?: number;
  /** Shown in the RabbitMQ management UI. */
  connectionName?: string;
  /** Reconnect back-off: first delay and cap. Default 250 ms and 30 s. */
  reconnectDelayMs?: { initial: number; max: number };
  /** How long publish() waits for the broker's confirm. Default 10000. */
  publishTimeoutMs?: number;
  /** The shop's events checked on publish and on consume (see EventCheck). */
  check?: EventCheck;
}

export const HEADER_ATTEMPT = 'x-attempt';
export const HEADER_ATTEMPTS = 'x-attempts';
export const HEADER_LAST_ERROR = 'x-last-error';
export const HEADER_ORIGINAL_QUEUE = 'x-original-queue';

export const deadLetterQueueName = (queue: string) => `${queue}.dlq`;
export const retryQueueName = (queue: string, delayMs: number) => `${queue}.retry.${delayMs}`;
/** Every queue a subscription declares (for clean-up in tests and ops). */
export function queuesOf(queue: string, retryDelaysMs: readonly number[]): string[] {
  return [queue, deadLetterQueueName(queue), ...[...new Set(retryDelaysMs)].map((d) => retryQueueName(queue, d))];
}

const MAX_ERROR_LENGTH = 2000;
const noop = () => undefined;

const internals = new WeakMap<EventBus, RabbitBus>();

/** Test hook: destroys the socket under the current connection, as a network failure would. */
export function simulateConnectionLoss(bus: EventBus): boolean {
  const model = internals.get(bus)?.currentModel();
  const stream = (model as unknown as { connection?: { stream?: { destroy(err?: Error): void } } } | null)?.connection?.stream;
  if (!stream) return false;
  stream.destroy(new Error('simulated network failure'));
  return true;
}

export function createRabbitBus(opts: RabbitBusOptions): EventBus {
  const impl = new RabbitBus(opts);
  const bus: EventBus = {
    kind: 'rabbitmq',
    publish: (event) => impl.publish(event),
    subscribe: (spec) => impl.subscribe(spec),
    deadLetters: (queue, limit) => impl.deadLetters(queue, limit),
    queueDepth: (queue) => impl.queueDepth(queue),
    isReady: () => impl.isReady(),
    close: (options) => impl.close(options),
  };
  internals.set(bus, impl);
  return bus;
}

class RabbitBus {
  readonly exchange: string;
  readonly logger: BusLogger;
  private readonly url: string;
  private readonly connectionName: string;
  private readonly reconnectDelay: { initial: number; max: number };
  private readonly publishTimeoutMs: number;
  readonly check: EventCheck | undefined;

  private model: ChannelModel | null = null;
  private connecting: Promise<ChannelModel | null> | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closing = false;
  private publishChannel: Promise<ConfirmChannel> | null = null;
  readonly subscriptions = new Set<RabbitSubscription>();

  constructor(opts: RabbitBusOptions) {
    this.exchange = opts.exchange ?? EVENTS_EXCHANGE;
    this.logger = opts.logger ?? SILENT_LOGGER;
    this.connectionName = opts.connectionName ?? `persona-bus-${process.pid}`;
    this.reconnectDelay = opts.reconnectDelayMs ?? { initial: 250, max: 30_000 };
    this.publishTimeoutMs = opts.publishTimeoutMs ?? 10_000;
    this.check = opts.check;
    const url = new URL(opts.url);
    if (!url.searchParams.has('heartbeat')) url.searchParams.set('heartbeat', String(opts.heartbeatSeconds ?? 15));
    this.url = url.toString();
    // Connect in the background at once; creating the bus never fails on a missing broker.
    void this.connect();
  }

  currentModel(): ChannelModel | null {
    return this.model;
  }

  isReady(): boolean {
    return this.model !== null && !this.closing;
  }

  private connect(): Promise<ChannelModel | null> {
    if (this.connecting) return this.connecting;
    this.connecting = this.openConnection().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async openConnection(): Promise<ChannelModel | null> {
    if (this.closing) return null;
    let model: ChannelModel | null = null;
    try {
      model = await amqp.connect(this.url, { timeout: 5000, clientProperties: { connection_name: this.connectionName } });
      const current = model;
      current.on('error', (err: Error) => this.logger.warn({ err: errorMessage(err) }, 'rabbitmq connection error'));
      current.on('close', (err?: Error) => this.onConnectionClosed(current, err));
      current.on('blocked', (reason: string) => this.logger.warn({ reason }, 'rabbitmq connection blocked by the broker'));
      current.on('unblocked', () => this.logger.info({}, 'rabbitmq connection unblocked'));
      await withChannel(current, (ch) => ch.assertExchange(this.exchange, 'topic', { durable: true }));
      if (this.closing) {
        await current.close().catch(noop);
        return null;
      }
      this.model = current;
      if (this.failures > 0) this.logger.info({ after: this.failures }, 'rabbitmq reconnected');
      else this.logger.info({ exchange: this.exchange }, 'rabbitmq connected');
      this.failures = 0;
      await Promise.all([...this.subscriptions].map((sub) => sub.attach(current).catch((err) => sub.retryLater(current, err))));
      return current;
    } catch (err) {
      if (model) await model.close().catch(noop);
      this.failures++;
      this.logger.warn({ err: errorMessage(err), failures: this.failures }, 'rabbitmq connection attempt failed');
      this.scheduleReconnect();
      return null;
    }
  }

  private onConnectionClosed(model: ChannelModel, err?: Error) {
    if (this.model !== model) return;
    this.model = null;
    this.publishChannel = null;
    for (const sub of this.subscriptions) sub.detach();
    if (this.closing) return;
    this.logger.warn({ err: err ? errorMessage(err) : undefined }, 'rabbitmq connection lost; reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    if (this.closing || this.reconnectTimer) return;
    const base = Math.min(this.reconnectDelay.max, this.reconnectDelay.initial * 2 ** Math.max(0, this.failures - 1));
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, delay);
  }

  /** The live connection, waiting only for an attempt already in flight. */
  async connection(): Promise<ChannelModel> {
    if (this.closing) throw new BusUnavailableError('the event bus is closed');
    const model = this.model ?? (this.connecting ? await this.connecting : null);
    if (!model) throw new BusUnavailableError('not connected to RabbitMQ');
    return model;
  }

  private async confirmChannel(): Promise<ConfirmChannel> {
    const model = await this.connection();
    if (!this.publishChannel) {
      const opening = model.createConfirmChannel().then((ch) => {
        ch.on('error', (err: Error) => this.logger.warn({ err: errorMessage(err) }, 'rabbitmq publish channel error'));
        ch.on('close', () => {
          if (this.publishChannel === opening) this.publishChannel = null;
        });
        return ch;
      });
      opening.catch(() => {
        if (this.publishChannel === opening) this.publishChannel = null;
      });
      this.publishChannel = opening;
    }
    return this.publishChannel;
  }

  async publish(event: EventEnvelope): Promise<void> {
    const problem = this.check?.(event);
    if (problem) throw new EventRefusedError(problem);
    const ch = await this.confirmChannel();
    const content = Buffer.from(JSON.stringify(event));
    await confirmedPublish(
      ch,
      this.exchange,
      event.type,
      content,
      {
        persistent: true,
        deliveryMode: 2,
        contentType: 'application/json',
        messageId: event.id,
        type: event.type,
        correlationId: event.correlationId,
        timestamp: Math.floor(Date.parse(event.occurredAt) / 1000) || Math.floor(Date.now() / 1000),
        headers: { [HEADER_ATTEMPT]: 1 },
      },
      this.publishTimeoutMs,
    );
  }

  async subscribe<B extends EventBinding>(input: SubscriptionSpec<B>): Promise<Subscription> {
    const spec = resolveSpec(input);
    if (this.closing) throw new BusUnavailableError('the event bus is closed');
    const sub = new RabbitSubscription(this, spec);
    this.subscriptions.add(sub);
    const model = this.model ?? (this.connecting ? await this.connecting : null);
    if (!model) {
      // Registered: it starts when the connection comes (back).
      this.logger.warn({ queue: spec.queue }, 'rabbitmq not reachable; the subscription starts once connected');
      return sub;
    }
    try {
      await sub.attach(model);
    } catch (err) {
      if (this.model === model) {
        // The connection is fine, so the subscription itself is wrong (e.g. a bad pattern): tell the caller.
        this.subscriptions.delete(sub);
        throw err;
      }
    }
    return sub;
  }

  /**
   * Reads up to `limit` dead letters with basic.get and then returns them all
   * to the queue (nack + requeue, then the channel closes), so inspecting
   * consumes nothing. Their `redelivered` flag is set by this.
   */
  async deadLetters(queue: string, limit = 100): Promise<DeadLetter[]> {
    const model = await this.connection();
    const ch = await model.createChannel();
    ch.on('error', noop);
    const out: DeadLetter[] = [];
    try {
      while (out.length < limit) {
        const msg = await ch.get(deadLetterQueueName(queue), { noAck: false });
        if (!msg) break;
        out.push(readDeadLetter(msg, queue));
      }
      return out;
    } catch (err) {
      if ((err as { code?: number }).code === 404) return []; // no such queue yet: nothing dead
      throw err;
    } finally {
      try {
        ch.nackAll(true);
      } catch {
        // channel already gone: the broker requeues unacked messages itself
      }
      await ch.close().catch(noop);
    }
  }

  /** Ready messages in the queue, those waiting in its retry queues, and its dead letters (passive declares). */
  async queueDepth(queue: string): Promise<QueueDepth> {
    const model = await this.connection();
    const count = async (name: string) => {
      try {
        return (await withChannel(model, (ch) => ch.checkQueue(name))).messageCount;
      } catch (err) {
        if ((err as { code?: number }).code === 404) return 0; // not declared yet: empty
        throw err;
      }
    };
    const subscribed = [...this.subscriptions].find((sub) => sub.spec.queue === queue);
    const delays = subscribed ? [...new Set(subscribed.spec.retryDelaysMs)] : [];
    const [ready, dead, ...retrying] = await Promise.all([
      count(queue),
      count(deadLetterQueueName(queue)),
      ...delays.map((d) => count(retryQueueName(queue, d))),
    ]);
    return { ready: ready!, dead: dead!, delayed: retrying.reduce((a, b) => a + b, 0) };
  }

  async close(options?: CloseOptions): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    await Promise.all([...this.subscriptions].map((sub) => sub.close(options)));
    await this.connecting?.catch(noop);
    const model = this.model;
    this.model = null;
    if (model) {
      const ch = await this.publishChannel?.catch(() => null);
      if (ch) await ch.waitForConfirms().catch(noop);
      await model.close().catch(noop);
    }
    this.publishChannel = null;
  }
}

class RabbitSubscription implements Subscription {
  private channel: ConfirmChannel | null = null;
  private consumerTag: string | null = null;
  private attachedTo: ChannelModel | null = null;
  private attaching: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private closing: Promise<void> | null = null;
  /** Messages handed to this subscription and not yet settled. */
  private inFlight = 0;
  private idle: (() => void) | null = null;
  private readonly dlq: string;

  constructor(
    private readonly bus: RabbitBus,
    readonly spec: ResolvedSpec,
  ) {
    this.dlq = deadLetterQueueName(spec.queue);
  }

  /** Declares the topology and starts consuming on this connection (idempotent per connection). */
  attach(model: ChannelModel): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.attachedTo === model && (this.channel || this.attaching)) return this.attaching ?? Promise.resolve();
    this.attachedTo = model;
    const attaching = this.start(model).finally(() => {
      if (this.attaching === attaching) this.attaching = null;
    });
    this.attaching = attaching;
    return attaching;
  }

  private async start(model: ChannelModel): Promise<void> {
    const { queue, bindings, retryDelaysMs, prefetch } = this.spec;
    const { exchange, logger } = this.bus;
    await declareDurableQueue(model, logger, queue, { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': this.dlq });
    await withChannel(model, async (ch) => {
      await ch.assertExchange(exchange, 'topic', { durable: true });
      // Classic on purpose: deadLetters() inspects by get + requeue, and a quorum
      // queue counts every requeue against its delivery limit (20 by default
      // since RabbitMQ 4.0), past which it would drop the dead letter for good.
      await ch.assertQueue(this.dlq, { durable: true });
      for (const delay of new Set(retryDelaysMs)) {
        // Classic on purpose: a short stop where every message has the same TTL.
        await ch.assertQueue(retryQueueName(queue, delay), {
          durable: true,
          arguments: { 'x-message-ttl': delay, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': queue },
        });
      }
      for (const pattern of bindings) await ch.bindQueue(queue, exchange, pattern);
    });

    const ch = await model.createConfirmChannel();
    ch.on('error', (err: Error) => logger.warn({ err: errorMessage(err), queue }, 'rabbitmq consumer channel error'));
    ch.on('close', () => this.onChannelClosed(model, ch));
    let consumerTag: string;
    try {
      await ch.prefetch(prefetch);
      ({ consumerTag } = await ch.consume(queue, (msg) => this.onMessage(model, ch, msg), { noAck: false }));
    } catch (err) {
      await ch.close().catch(noop);
      throw err;
    }
    if (this.closed) {
      await ch.close().catch(noop);
      return;
    }
    this.channel = ch;
    this.consumerTag = consumerTag;
    logger.info({ queue, bindings, prefetch }, 'rabbitmq subscription started');
  }

  /** The connection went away: the broker already requeued our unacked messages. */
  detach() {
    this.channel = null;
    this.consumerTag = null;
    this.attachedTo = null;
  }

  retryLater(model: ChannelModel, err: unknown) {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.closed || this.bus.currentModel() !== model) return; // a reconnect re-attaches instead
      this.bus.logger.warn({ err: errorMessage(err), queue: this.spec.queue }, 'rabbitmq subscription interrupted; starting it again');
      this.attachedTo = null;
      this.attach(model).catch((e) => this.retryLater(model, e));
    }, 1000);
  }

  private onChannelClosed(model: ChannelModel, ch: Channel) {
    if (this.channel !== ch) return;
    this.channel = null;
    if (this.closed || this.bus.currentModel() !== model) return;
    // The channel died but the connection lives (e.g. the queue was deleted): start over.
    this.retryLater(model, new Error('consumer channel closed'));
  }

  private onMessage(model: ChannelModel, ch: ConfirmChannel, msg: ConsumeMessage | null) {
    if (!msg) {
      // basic.cancel from the broker (queue deleted or failed over): re-declare and consume again.
      if (this.channel === ch && !this.closed) {
        this.channel = null;
        ch.close().catch(noop);
        this.retryLater(model, new Error('consumer cancelled by the broker'));
      }
      return;
    }
    this.inFlight++;
    void this.process(ch, msg).finally(() => {
      this.inFlight--;
      if (this.inFlight === 0) this.idle?.();
    });
  }

  private async process(ch: ConfirmChannel, msg: ConsumeMessage) {
    const { queue, handler, maxAttempts, retryDelaysMs } = this.spec;
    const attempt = attemptOf(msg);
    let event: EventEnvelope;
    try {
      event = parseEnvelope(msg.content, this.bus.check);
    } catch (err) {
      this.bus.logger.error(
        { queue, messageId: msg.properties.messageId, correlationId: msg.properties.correlationId, err: errorMessage(err) },
        'malformed message; dead-lettered',
      );
      await this.forward(ch, msg, this.dlq, {
        [HEADER_ATTEMPTS]: attempt,
        [HEADER_LAST_ERROR]: `malformed message: ${errorMessage(err)}`,
        [HEADER_ORIGINAL_QUEUE]: queue,
      });
      return;
    }
    const log = eventLogger(this.bus.logger, event, { queue });
    const started = Date.now();
    try {
      await handler(event, { attempt, redelivered: msg.fields.redelivered });
    } catch (err) {
      const reason = errorMessage(err).slice(0, MAX_ERROR_LENGTH);
      if (attempt >= maxAttempts) {
        log.error({ attempts: attempt, err: reason }, 'event dead-lettered');
        await this.forward(ch, msg, this.dlq, { [HEADER_ATTEMPTS]: attempt, [HEADER_LAST_ERROR]: reason, [HEADER_ORIGINAL_QUEUE]: queue });
      } else {
        const delay = retryDelayFor(retryDelaysMs, attempt);
        log.warn({ attempt, retryInMs: delay, err: reason }, 'event handler failed; will retry');
        await this.forward(ch, msg, retryQueueName(queue, delay), { [HEADER_ATTEMPT]: attempt + 1, [HEADER_LAST_ERROR]: reason });
      }
      return;
    }
    if (settle(ch, msg, 'ack')) log.debug?.({ attempt, ms: Date.now() - started }, 'event handled');
    else log.info({ attempt }, 'event handler finished after its channel closed; the broker redelivers the message');
  }

  /** Copies the message to another queue, confirmed, and only then acks the original. */
  private async forward(ch: ConfirmChannel, msg: ConsumeMessage, target: string, headers: Record<string, unknown>) {
    const p = msg.properties;
    const { 'x-death': _death, ...kept } = (p.headers ?? {}) as Record<string, unknown>;
    try {
      await confirmedPublish(
        ch,
        '',
        target,
        msg.content,
        {
          persistent: true,
          deliveryMode: 2,
          contentType: p.contentType ?? 'application/json',
          messageId: p.messageId,
          type: p.type,
          correlationId: p.correlationId,
          timestamp: p.timestamp,
          headers: { ...kept, ...headers },
        },
        10_000,
      );
      settle(ch, msg, 'ack');
    } catch (err) {
      // Not moved: leave it to the broker (redelivered now, or after the channel is gone).
      this.bus.logger.warn({ err: errorMessage(err), queue: this.spec.queue, target }, 'could not move message; requeueing');
      settle(ch, msg, 'requeue');
    }
  }

  close(options: CloseOptions = {}): Promise<void> {
    this.closing ??= this.shutDown(options.graceMs ?? 0);
    return this.closing;
  }

  private async shutDown(graceMs: number): Promise<void> {
    this.closed = true;
    this.bus.subscriptions.delete(this);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.attaching?.catch(noop);
    const ch = this.channel;
    const tag = this.consumerTag;
    if (ch && tag && graceMs > 0 && this.inFlight > 0) {
      // basic.cancel: the broker sends nothing more, and what we hold stays ours to ack until the channel closes.
      await ch.cancel(tag).catch(noop);
      const finished = new Promise<void>((resolve) => (this.idle = resolve));
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      if (this.inFlight > 0) await Promise.race([finished, expired]);
      clearTimeout(timer);
      if (this.inFlight > 0)
        this.bus.logger.warn(
          { queue: this.spec.queue, handing: this.inFlight, graceMs },
          'rabbitmq: handlers still running at the deadline; handing their messages back',
        );
    }
    this.channel = null;
    this.consumerTag = null;
    // Closing the channel stops delivery and hands every unacked message back to the queue.
    if (ch) await ch.close().catch(noop);
  }
}

/** False when the channel is already closed: the broker requeued the message itself. */
function settle(ch: Channel, msg: ConsumeMessage, how: 'ack' | 'requeue'): boolean {
  try {
    if (how === 'ack') ch.ack(msg);
    else ch.nack(msg, false, true);
    return true;
  } catch {
    // The channel is closed (subscription closed or connection lost): the broker requeued the message.
    return false;
  }
}

function attemptOf(msg: ConsumeMessage | GetMessage): number {
  const raw = msg.properties.headers?.[HEADER_ATTEMPT];
  const n = typeof raw === 'number' ? raw : Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

function parseEnvelope(content: Buffer, check?: EventCheck): EventEnvelope {
  const value = JSON.parse(content.toString('utf8')) as unknown;
  if (typeof value !== 'object' || value === null || typeof (value as EventEnvelope).id !== 'string' || typeof (value as EventEnvelope).type !== 'string') {
    throw new Error('not an event envelope');
  }
  const problem = check?.(value);
  if (problem) throw new Error(problem);
  return value as EventEnvelope;
}

function readDeadLetter(msg: GetMessage, queue: string): DeadLetter {
  const headers = msg.properties.headers ?? {};
  let event: EventEnvelope;
  try {
    event = parseEnvelope(msg.content);
  } catch {
    event = {
      id: String(msg.properties.messageId ?? ''),
      type: String(msg.properties.type ?? ''),
      occurredAt: '',
      correlationId: String(msg.properties.correlationId ?? ''),
      payload: msg.content.toString('utf8'),
    };
  }
  const attempts = Number(headers[HEADER_ATTEMPTS] ?? headers[HEADER_ATTEMPT] ?? 1);
  const lastError = headers[HEADER_LAST_ERROR];
  return {
    event,
    attempts: Number.isFinite(attempts) ? attempts : 1,
    lastError: lastError === undefined ? 'rejected' : Buffer.isBuffer(lastError) ? lastError.toString('utf8') : String(lastError),
    queue,
  };
}

function confirmedPublish(
  ch: ConfirmChannel,
  exchange: string,
  routingKey: string,
  content: Buffer,
  options: Options.Publish,
  timeoutMs: number,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new BusUnavailableError(`no publisher confirm within ${timeoutMs} ms`)), timeoutMs);
    try {
      ch.publish(exchange, routingKey, content, options, (err) => {
        clearTimeout(timer);
        if (!err) resolve();
        else if (err instanceof Error && /closed/i.test(err.message)) reject(new BusUnavailableError(`publish not confirmed: ${err.message}`));
        else reject(err instanceof Error ? err : new Error(`message nacked by the broker: ${String(err)}`));
      });
    } catch (err) {
      clearTimeout(timer);
      reject(err instanceof Error && /closed/i.test(err.message) ? new BusUnavailableError(err.message) : err);
    }
  });
}

/** Runs declarations on a throwaway channel: a failed declaration closes the channel it ran on. */
async function withChannel<T>(model: ChannelModel, fn: (ch: Channel) => Promise<T>): Promise<T> {
  const ch = await model.createChannel();
  ch.on('error', noop);
  try {
    return await fn(ch);
  } finally {
    await ch.close().catch(noop);
  }
}

/** A durable quorum queue, or a durable classic one where quorum cannot be declared (older broker, existing classic queue). */
async function declareDurableQueue(model: ChannelModel, logger: BusLogger, name: string, args: Record<string, unknown>): Promise<void> {
  try {
    await withChannel(model, (ch) => ch.assertQueue(name, { durable: true, arguments: { ...args, 'x-queue-type': 'quorum' } }));
  } catch (err) {
    logger.warn({ queue: name, err: errorMessage(err) }, 'quorum queue not available; declaring a classic durable queue');
    await withChannel(model, (ch) => ch.assertQueue(name, { durable: true, arguments: args }));
  }
}
