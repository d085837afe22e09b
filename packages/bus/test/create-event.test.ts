import { createEvent } from '../src';

describe('createEvent', () => {
  it('builds an envelope with a fresh uuid and an ISO timestamp', () => {
    const event = createEvent('book.deleted', { bookId: 'b1', title: 'T' }, { correlationId: 'req-1' });
    expect(event).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'book.deleted',
      occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      correlationId: 'req-1',
      payload: { bookId: 'b1', title: 'T' },
    });
    expect(createEvent('book.deleted', { bookId: 'b1', title: 'T' }, { correlationId: 'req-1' }).id).not.toBe(event.id);
  });

  it('keeps a given id and time (deterministic producers)', () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    const event = createEvent('category.created', { categoryId: 'c', name: 'n' }, { correlationId: 'c', id: 'fixed', occurredAt: at });
    expect(event.id).toBe('fixed');
    expect(event.occurredAt).toBe('2026-01-02T03:04:05.000Z');
  });

  it("names the administrator who caused it, and only their id and e-mail; the shop's own events name no one", () => {
    const actor = { id: 'a1', email: 'owner@example.com' };
    const byAdmin = createEvent('book.deleted', { bookId: 'b1', title: 'T' }, { correlationId: 'c', actor: { ...actor, extra: 'x' } as typeof actor });
    expect(byAdmin.actor).toEqual(actor);
    const byShop = createEvent('book.deleted', { bookId: 'b1', title: 'T' }, { correlationId: 'c' });
    expect('actor' in byShop).toBe(false);
  });
});
