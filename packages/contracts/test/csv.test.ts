import { csvField, toCsv, toCsvRows } from '../src';

describe('toCsv (RFC 4180)', () => {
  it('writes a header and rows, every record ending in CRLF', () => {
    expect(
      toCsv(
        ['Email', 'Subscribed At'],
        [
          ['a@example.com', '2026-01-02T03:04:05.000Z'],
          ['b@example.com', '2026-01-01T00:00:00.000Z'],
        ],
      ),
    ).toBe('Email,Subscribed At\r\na@example.com,2026-01-02T03:04:05.000Z\r\nb@example.com,2026-01-01T00:00:00.000Z\r\n');
  });

  it('writes only the header when there are no rows', () => {
    expect(toCsv(['Email', 'Subscribed At'], [])).toBe('Email,Subscribed At\r\n');
  });

  it.each([
    ['a comma', 'Tagore, Rabindranath', '"Tagore, Rabindranath"'],
    ['a quote, doubled', 'the "best" book', '"the ""best"" book"'],
    ['a line feed', 'line one\nline two', '"line one\nline two"'],
    ['a carriage return inside', 'one\rtwo', '"one\rtwo"'],
    ['CRLF', 'one\r\ntwo', '"one\r\ntwo"'],
  ])('quotes a field containing %s', (_label, value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it('leaves plain fields, spaces and non-ASCII text unquoted', () => {
    expect(toCsvRows([['Zoë Ünal', ' padded ', 'मीरा', "O'Brien"]])).toBe("Zoë Ünal, padded ,मीरा,O'Brien\r\n");
  });

  it('writes null and undefined as empty fields, keeping the column count', () => {
    expect(toCsvRows([[null, 'x', undefined], [undefined]])).toBe(',x,\r\n\r\n');
    expect(csvField('')).toBe('');
  });

  it('writes numbers as they are, negative ones included', () => {
    expect(toCsvRows([[0, 349.5, -12, 1e21]])).toBe('0,349.5,-12,1e+21\r\n');
  });

  it('writes a negative amount given as text (two decimals kept) as a number, not as a formula', () => {
    expect(toCsvRows([['-200.00', '-7', '-1.5e3', '-2-3']])).toBe("-200.00,-7,'-1.5e3,'-2-3\r\n");
  });
});

describe('toCsv against spreadsheet formula injection', () => {
  it.each([
    ['=', '=HYPERLINK("http://evil.example","click")', `"'=HYPERLINK(""http://evil.example"",""click"")"`],
    ['+', '+1+2', "'+1+2"],
    ['-', '-2+3', "'-2+3"],
    ['@', '@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['a tab', '\t=1+1', "'\t=1+1"],
    ['a carriage return (still quoted)', '\r=1+1', `"'\r=1+1"`],
    ['= with a comma (still quoted)', '=1,2', `"'=1,2"`],
  ])('puts an apostrophe before text starting with %s', (_label, value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it('leaves those characters alone anywhere but at the start', () => {
    expect(toCsvRows([['a=b', 'x+y', 'me@example.com', 'a-b', ' =1']])).toBe('a=b,x+y,me@example.com,a-b, =1\r\n');
  });

  it('guards the header too', () => {
    expect(toCsv(['=cmd'], [])).toBe("'=cmd\r\n");
  });

  it('round-trips through a strict RFC 4180 reader', () => {
    const rows = [['plain', 'with, comma', 'say "hi"', 'two\r\nlines', null, '=1+1', 7]];
    expect(parseCsv(toCsv(['a', 'b', 'c', 'd', 'e', 'f', 'g'], rows))).toEqual([
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
      ['plain', 'with, comma', 'say "hi"', 'two\r\nlines', '', "'=1+1", '7'],
    ]);
  });
});

/** A small strict RFC 4180 reader (CRLF records, quoted fields), for the round trip above. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote < 0) throw new Error('unterminated quoted field');
        field += text.slice(i, quote);
        i = quote + 1;
        if (text[i] === '"') {
          field += '"';
          i += 1;
        } else break;
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r') field += text[i++];
    }
    record.push(field);
    if (text[i] === ',') i += 1;
    else if (text.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
    } else throw new Error(`unexpected character at ${i}`);
  }
  return records;
}
