import { addressOneLine, computeOrderAmount, DELIVERY_FEE_PAISE, formatPersonaId, isPersonaId, normalizePersonaId, shopDate, shopDayStart } from '../src';

describe('computeOrderAmount', () => {
  const book = { pricePaise: 34950, printingCostPaise: 12000 };

  it('charges the price alone for a digital Persona (no printing, no delivery)', () => {
    expect(computeOrderAmount(book, 'digital')).toEqual({ basePaise: 34950, printingPaise: 0, deliveryPaise: 0, totalPaise: 34950 });
  });

  it('adds printing and the flat delivery fee for a printed one', () => {
    expect(computeOrderAmount(book, 'physical')).toEqual({ basePaise: 34950, printingPaise: 12000, deliveryPaise: DELIVERY_FEE_PAISE, totalPaise: 51950 });
  });
});

describe('persona ids', () => {
  it('formats 80 bits as PRS- and four groups of Crockford base32', () => {
    expect(formatPersonaId(new Uint8Array(10))).toBe('PRS-0000-0000-0000-0000');
    expect(formatPersonaId(new Uint8Array(10).fill(255))).toBe('PRS-ZZZZ-ZZZZ-ZZZZ-ZZZZ');
    expect(isPersonaId(formatPersonaId(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])))).toBe(true);
    expect(() => formatPersonaId(new Uint8Array(9))).toThrow(RangeError);
  });

  it('reads what a person types, in any case, with or without dashes', () => {
    expect(normalizePersonaId('prs-7k3m-9qxd-2hfa-j8tw')).toBe('PRS-7K3M-9QXD-2HFA-J8TW');
    expect(normalizePersonaId(' 7K3M9QXD2HFAJ8TW ')).toBe('PRS-7K3M-9QXD-2HFA-J8TW');
    expect(normalizePersonaId('PRS 7K3M 9QXD 2HFA J8TW')).toBe('PRS-7K3M-9QXD-2HFA-J8TW');
    expect(normalizePersonaId('PRS-OIL0-0000-0000-0000')).toBe('PRS-0110-0000-0000-0000');
  });

  it('refuses what cannot be a persona id', () => {
    for (const bad of ['', 'PRS-1234', 'PRS-UUUU-0000-0000-0000', '../etc/passwd', 'PRS-7K3M-9QXD-2HFA-J8TW-EXTRA']) {
      expect(normalizePersonaId(bad)).toBeNull();
    }
  });
});

describe('shopDate', () => {
  it("answers India's date, which turns at 18:30 UTC", () => {
    expect(shopDate(new Date('2026-11-24T18:29:59Z'))).toBe('2026-11-24');
    expect(shopDate(new Date('2026-11-24T18:30:00Z'))).toBe('2026-11-25');
  });

  it("knows when a shop's day begins in UTC", () => {
    expect(shopDayStart('2026-11-25').toISOString()).toBe('2026-11-24T18:30:00.000Z');
    expect(shopDate(shopDayStart('2026-11-25'))).toBe('2026-11-25');
  });

  it('counts days back across a month and a year', () => {
    expect(shopDate(new Date('2026-03-01T02:00:00Z'), 1)).toBe('2026-02-28');
    expect(shopDate(new Date('2027-01-01T00:00:00Z'), 29)).toBe('2026-12-03');
  });
});

describe('an address on one line', () => {
  it('names whom the courier asks for, every line, the state by name and the PIN code, never the phone', () => {
    expect(
      addressOneLine({
        name: 'Ravi Menon',
        phone: '+91 98765 43210',
        line1: '12 Beach Road',
        line2: 'Flat 4B',
        landmark: 'Opposite the lighthouse',
        city: 'Kochi',
        state: '32',
        zip: '682001',
        country: 'India',
      }),
    ).toBe('Ravi Menon, 12 Beach Road, Flat 4B, Opposite the lighthouse, Kochi, Kerala, 682001, India');
  });

  it('leaves out what an older order did not have', () => {
    expect(addressOneLine({ line1: '12 MG Road', line2: ' ', city: 'Bengaluru', zip: '560001', country: 'India' })).toBe(
      '12 MG Road, Bengaluru, 560001, India',
    );
  });
});
