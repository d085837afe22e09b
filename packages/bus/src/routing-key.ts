// AMQP topic matching: words split on '.', '*' is exactly one word, '#' zero or more.

export function matchesRoutingKey(pattern: string, key: string): boolean {
  return matchWords(words(pattern), 0, words(key), 0);
}

// RabbitMQ reads an empty key as zero words ('#' matches it, '*' does not).
const words = (s: string) => (s === '' ? [] : s.split('.'));

function matchWords(p: string[], i: number, k: string[], j: number): boolean {
  while (i < p.length) {
    const word = p[i]!;
    if (word === '#') {
      // Collapse runs of '#', then try every split point for what it swallows.
      while (i + 1 < p.length && p[i + 1] === '#') i++;
      if (i === p.length - 1) return true;
      for (let skip = j; skip <= k.length; skip++) {
        if (matchWords(p, i + 1, k, skip)) return true;
      }
      return false;
    }
    if (j >= k.length) return false;
    if (word !== '*' && word !== k[j]) return false;
    i++;
    j++;
  }
  return j === k.length;
}
