// The transport-neutral contract every service codes against.
import type { EventEnvelope, EventOf, EventType } from '@persona/contracts';

export interface EventContext {
  /** 1 on the first try; grows by one after every failed try (not after a crash redelivery). */
  attempt: number;
  /** True when this very message was handed out before and never acknowledged (a consumer died or closed). */
  redelivered: boolean;
}

export type EventHandler<E extends EventEnvelope = EventEnvelope> = (event: E, ctx: EventContext) => Promise<void>;

type FamilyOf<T> = T extends `${infer F}.${string}` ? F : never;
/** A routing-key pattern over the shop's events: one type ('order.paid'), a family ('book.*') or all ('#'). */
export type EventBinding = EventType | `${FamilyOf<EventType>}.*` | '#';
/** The event types a binding matches. */
export type BoundType<B extends EventBinding> = B extends '#'
  ? EventType
  : B extends `${infer F}.*`
    ? Extract<EventType, `${F}.${string}`>
    : Extract<B, EventType>;
/** One of the given events, its payload typed by its type: a handler narrows it with `event.type`, no cast. */
export type KnownEvent<T extends EventType = EventType> = { [K in T]: EventOf<K> }[T];

export interface SubscriptionSpec<B extends EventBinding = EventBinding> {
  /** The consumer's durable queue, e.g. 'admin.audit'. */
  queue: string;
  /** Routing-key patterns: 'book.*', 'order.paid', '#'. */
  bindings: readonly B[];
  /**
   * Gets the events its bindings match, typed by them. The transports check every message on
   * consume (the contracts' `eventProblem`), so the payload is what its type's schema says.
   */
  handler: EventHandler<KnownEvent<BoundType<B>>>;
  /** Unacknowledged messages handed to this subscription at once. Default 10. */
  prefetch?: number;
  /** Tries before the message goes to the dead-letter queue. Default 5. */
  maxAttempts?: number;
  /** Back-off after the n-th failed try (the last value repeats). Default [1000, 5000, 15000, 60000]. */
  retryDelaysMs?: number[];
}

export interface CloseOptions {
  /**
   * How long handlers already running may take to finish (and be acknowledged,
   * retried or dead-lettered as usual) once no new message is taken. Messages
   * still unacknowledged after it go back to the queue. Default 0: at once.
   */
  graceMs?: number;
}

export interface Subscription {
  /** Stops taking messages, lets running handlers finish within `graceMs`, hands the rest back to the queue. */
  close(options?: CloseOptions): Promise<void>;
}

/** Messages of a consumer queue that nobody is handling right now. */
export interface QueueDepth {
  /** Waiting to be handed to a consumer. */
  ready: number;
  /** Waiting for a retry after a failed attempt. */
  delayed: number;
  /** In the dead-letter queue. */
  dead: number;
}

export interface DeadLetter {
  event: EventEnvelope;
  attempts: number;
  lastError: string;
  queue: string;
}

export interface EventBus {
  readonly kind: 'rabbitmq' | 'in-process';
  /** Resolves only once the message is durably stored (broker confirm / committed row). */
  publish(event: EventEnvelope): Promise<void>;
  subscribe<B extends EventBinding>(spec: SubscriptionSpec<B>): Promise<Subscription>;
  /** The dead letters of a consumer queue, oldest first, without consuming them. */
  deadLetters(queue: string, limit?: number): Promise<DeadLetter[]>;
  /** How many messages wait in a consumer queue (for the queue-depth gauge). */
  queueDepth(queue: string): Promise<QueueDepth>;
  /** Connected and able to publish (for /readyz). */
  isReady(): boolean;
  /** Closes every subscription (with `graceMs` for running handlers), waits for outstanding confirms, disconnects. */
  close(options?: CloseOptions): Promise<void>;
}

/** pino-compatible. */
export interface BusLogger {
  info(o: object, msg?: string): void;
  warn(o: object, msg?: string): void;
  error(o: object, msg?: string): void;
  debug?(o: object, msg?: string): void;
  child?(bindings: Record<string, unknown>): BusLogger;
}

export const DEFAULT_PREFETCH = 10;
export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1000, 5000, 15000, 60000];

/** Thrown by publish() when the transport cannot take the message right now; the caller (the outbox) retries. */
export class BusUnavailableError extends Error {
  override readonly name = 'BusUnavailableError';
}

/**
 * What is wrong with a message as one of the shop's events, or null (the contracts' `eventProblem`).
 * Given to a transport, it is asked on publish (a wrong event is refused) and on consume (a wrong
 * message is dead-lettered at once, with this reason, and never reaches a handler).
 */
export type EventCheck = (message: unknown) => string | null;

/** A publish refused by the bus's event check: a bug in the publisher, not a broker failure. */
export class EventRefusedError extends Error {
  override readonly name = 'EventRefusedError';
  constructor(readonly problem: string) {
    super(`event refused: ${problem}`);
  }
}
