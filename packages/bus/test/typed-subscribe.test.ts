// A subscription's handler gets the events its bindings match, typed by them: a handler narrows an
// event by its type and reads its payload without a cast, and the check on consume makes that true.
import { randomUUID } from 'node:crypto';
import { eventProblem, type EventOf } from '@persona/contracts';
import type { BoundType, EventBus, KnownEvent } from '../src';
import { envelope, pgliteBus, waitFor } from './helpers';

// Compile-time facts (typecheck fails if one stops holding).
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const facts: [
  Equal<BoundType<'book.*'>, 'book.created' | 'book.updated' | 'book.deleted'>,
  Equal<
    BoundType<'persona.*'>,
    | 'persona.ready'
    | 'persona.failed'
    | 'persona.retry_requested'
    | 'persona.reissue_requested'
    | 'persona.download_renewal_requested'
    | 'persona.downloads_reset'
    | 'persona.downloads_revoked'
  >,
  Equal<BoundType<'order.paid'>, 'order.paid'>,
  Equal<KnownEvent<'order.paid'>, EventOf<'order.paid'>>,
] = [true, true, true, true];
void facts;

describe('typed subscriptions', () => {
  let stack: Awaited<ReturnType<typeof pgliteBus>>;
  let bus: EventBus;
  beforeAll(async () => {
    stack = await pgliteBus(eventProblem);
    ({ bus } = stack);
  });
  afterAll(() => stack.close());

  it('hands a family binding its events, each narrowed by its type', async () => {
    const lines: string[] = [];
    const subscription = await bus.subscribe({
      queue: 'typed.books',
      bindings: ['book.*'],
      handler: async (event) => {
        if (event.type === 'book.deleted') {
          lines.push(`deleted ${event.payload.title}`);
          // @ts-expect-error a deleted book's payload has no price
          void event.payload.pricePaise;
        } else {
          lines.push(`${event.type} ${event.payload.title} ${event.payload.pricePaise}`);
        }
      },
    });
    try {
      const bookId = randomUUID();
      await bus.publish(envelope('book.created', { bookId, title: 'Gitanjali', author: 'Tagore', pricePaise: 49900, categoryId: null }));
      await bus.publish(envelope('book.deleted', { bookId, title: 'Gitanjali' }));
      await waitFor(() => lines.length === 2, 'both book events');
      expect(lines).toEqual(['book.created Gitanjali 49900', 'deleted Gitanjali']);
    } finally {
      await subscription.close();
    }
  });

  it('refuses, at compile time, a binding that matches none of the shop’s events', async () => {
    const subscribe = () =>
      // @ts-expect-error 'shelf.*' is no family of the shop's events
      bus.subscribe({ queue: 'typed.none', bindings: ['shelf.*'], handler: async () => undefined });
    expect(typeof subscribe).toBe('function');
  });
});
