// Refine: a service's hand-written column types over the generated ones (its src/db.ts). Proved by
// the typecheck (the @ts-expect-error lines fail it if they compile) and by the values below.
import type { Refine } from '../src';

interface Generated {
  orders: { id: string; status: string; address: unknown };
  notes: { id: string; text: string };
}

type Orders = Refine<Generated['orders'], { status: 'paid' | 'failed' }>;
type Shop = Refine<Generated, { orders: Orders }>;

// @ts-expect-error a column the migrations do not make (a typo, or one dropped) cannot be narrowed
type _MisspeltColumn = Refine<Generated['orders'], { stauts: 'paid' }>;
// @ts-expect-error nor a table they do not make
type _UnknownTable = Refine<Generated, { order: Orders }>;

describe('Refine', () => {
  it('narrows the columns it names and keeps every other as generated', () => {
    const order: Shop['orders'] = { id: 'o1', status: 'paid', address: null };
    const note: Shop['notes'] = { id: 'n1', text: 'kept' };
    // @ts-expect-error a value outside the narrowed union
    const wrong: Shop['orders'] = { id: 'o2', status: 'shipped', address: null };
    expect([order.status, note.text, wrong.id]).toEqual(['paid', 'kept', 'o2']);
  });
});
