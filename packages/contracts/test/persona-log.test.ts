// The public log's entries (issue 27): one canonical text each, read back or refused; and the rules
// an audit of the whole log checks beyond its hashes.
import { formatLogEntry, LogRules, parseLogEntry, type LogEntry } from '../src/persona-log';

const BOOK = 'b1';
const C = 'c'.repeat(64);
const copy = (n: number, book = BOOK): LogEntry => ({ v: 1, type: 'persona', book, copy: n, commitment: C });

describe('log entries', () => {
  it('are canonical JSON, read back as they were written', () => {
    const entries: LogEntry[] = [
      copy(37),
      { v: 1, type: 'reissue', book: BOOK, copy: 37, commitment: C, replaces: 4 },
      { v: 1, type: 'revoked', book: BOOK, copy: 2, reason: 'the copy could not be made' },
      { v: 1, type: 'refund', of: 4 },
      { v: 1, type: 'printed', of: 4 },
      { v: 1, type: 'shipped', of: 4 },
    ];
    expect(formatLogEntry(copy(37))).toBe(`{"book":"b1","commitment":"${C}","copy":37,"type":"persona","v":1}`);
    for (const entry of entries) expect(parseLogEntry(formatLogEntry(entry))).toEqual(entry);
  });

  it('refuses anything else: another spelling of the same fields, a missing or extra field, a bad value', () => {
    const text = formatLogEntry(copy(1));
    for (const bad of [
      text.replace('{', '{ '),
      `{"v":1,"type":"persona","book":"b1","copy":1,"commitment":"${C}"}`,
      text.replace('"copy":1', '"copy":0'),
      text.replace(C, 'C'.repeat(64)),
      text.replace(',"v":1', ',"v":2'),
      '{"of":-1,"type":"refund","v":1}',
      '{"of":1,"type":"deleted","v":1}',
      'not json',
      '[]',
    ]) {
      expect({ bad, parsed: parseLogEntry(bad) }).toEqual({ bad, parsed: null });
    }
  });
});

describe('the log rules', () => {
  const check = (entries: Array<LogEntry | string>) => {
    const rules = new LogRules();
    entries.forEach((e, i) => rules.add(i, typeof e === 'string' ? e : formatLogEntry(e)));
    return rules;
  };

  it("hold for each book's copies numbered 1, 2, 3…, a revoked number made late, re-issues, refunds, a printed copy and its shipment", () => {
    const rules = check([
      copy(1),
      copy(1, 'b2'),
      { v: 1, type: 'revoked', book: BOOK, copy: 2, reason: 'x' },
      copy(3),
      copy(2),
      { v: 1, type: 'reissue', book: BOOK, copy: 3, commitment: C, replaces: 3 },
      { v: 1, type: 'refund', of: 5 },
      { v: 1, type: 'printed', of: 0 },
      { v: 1, type: 'shipped', of: 0 },
    ]);
    expect(rules.problems).toEqual([]);
    expect(rules.books).toEqual(
      new Map([
        [BOOK, 3],
        ['b2', 1],
      ]),
    );
  });

  it('name each entry that breaks them', () => {
    const rules = check([
      copy(1),
      copy(3),
      { v: 1, type: 'revoked', book: BOOK, copy: 1, reason: 'x' },
      { v: 1, type: 'reissue', book: BOOK, copy: 2, commitment: C, replaces: 0 },
      { v: 1, type: 'refund', of: 2 },
      { v: 1, type: 'shipped', of: 0 },
      { v: 1, type: 'printed', of: 9 },
      'garbage',
    ]);
    expect(rules.problems).toEqual([
      'entry 1: copy 3 of b1 comes before copy 2',
      'entry 2: revokes copy 1 of b1, a number already used',
      'entry 3: re-issues copy 2 of b1, but entry 0 is not that copy',
      'entry 4: refunds entry 2, which is not an earlier copy',
      'entry 5: ships entry 0, whose printed copy the log has not recorded',
      'entry 6: prints entry 9, which is not an earlier copy',
      'entry 7: not an entry of this log: "garbage"',
    ]);
  });
});
