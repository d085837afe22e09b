import { matchesRoutingKey } from '../src';

describe('matchesRoutingKey (AMQP topic rules)', () => {
  it.each([
    ['book.*', 'book.created', true],
    ['book.*', 'book', false],
    ['book.*', 'book.created.v2', false],
    ['book.*', 'order.paid', false],
    ['order.paid', 'order.paid', true],
    ['order.paid', 'order.paid.x', false],
    ['#', 'order.paid', true],
    ['#', 'x', true],
    ['#', '', true],
    ['book.#', 'book', true],
    ['book.#', 'book.created', true],
    ['book.#', 'book.a.b.c', true],
    ['book.#', 'books.created', false],
    ['#.paid', 'order.paid', true],
    ['#.paid', 'paid', true],
    ['#.paid', 'order.paid.late', false],
    ['*.paid', 'order.paid', true],
    ['*.paid', 'paid', false],
    ['*.*', 'a.b', true],
    ['*.*', 'a', false],
    ['a.#.z', 'a.z', true],
    ['a.#.z', 'a.b.c.z', true],
    ['a.#.z', 'a.b.c', false],
    ['a.#.#.z', 'a.z', true],
    ['#.*', 'a', true],
    ['#.*', '', false],
    ['*.#.*', 'a.b', true],
    ['*.#.*', 'a', false],
    ['persona.*', 'persona.ready', true],
  ])('%s ~ %s → %s', (pattern, key, expected) => {
    expect(matchesRoutingKey(pattern, key)).toBe(expected);
  });
});
