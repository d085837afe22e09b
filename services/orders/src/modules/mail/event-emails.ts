// An event that asks for one e-mail (issue 24): another service announces something only the
// orders service can tell a person about, since its mail relay sends the shop's e-mails and it
// alone keeps buyers' addresses. The e-mail is queued through the inbox, in the same transaction,
// so however often the event arrives it is queued once; the relay is nudged after.
import { eventLogger, handleOnce, type BusLogger, type EventBus, type KnownEvent, type Subscription } from '@persona/bus';
import type { EventType } from '@persona/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { OrdersDB } from '../../db';
import { queueEmail, type DueEmail } from './emails.repository';

export interface EventEmail<T extends EventType> {
  /** The consumer's durable queue, also its name in the inbox. */
  queue: string;
  type: T;
  /** The e-mail the event asks for; null when it names nothing this service knows. */
  emailOf: (trx: Transaction<OrdersDB>, event: KnownEvent<T>) => Promise<DueEmail | null>;
  /** What the log says of each event handled, and the fields that find it. */
  logged: (event: KnownEvent<T>) => { fields: Record<string, unknown>; message: string };
}

/** Queues the event's e-mail; false when the event was seen before or asks for none. */
export async function applyEventEmail<T extends EventType>(db: Kysely<OrdersDB>, spec: EventEmail<T>, event: KnownEvent<T>): Promise<boolean> {
  let queued = false;
  await handleOnce(db, spec.queue, event, async (trx) => {
    const email = await spec.emailOf(trx, event);
    if (!email) return;
    await queueEmail(trx, email);
    queued = true;
  });
  return queued;
}

export function subscribeEventEmail<T extends EventType>(
  bus: EventBus,
  db: Kysely<OrdersDB>,
  spec: EventEmail<T>,
  afterQueued: () => void,
  logger?: BusLogger,
): Promise<Subscription> {
  return bus.subscribe({
    queue: spec.queue,
    bindings: [spec.type],
    handler: async (event) => {
      const queued = await applyEventEmail(db, spec, event as KnownEvent<T>);
      if (logger) {
        const { fields, message } = spec.logged(event as KnownEvent<T>);
        eventLogger(logger, event, fields).info({ queued }, message);
      }
      if (queued) afterQueued();
    },
  });
}
