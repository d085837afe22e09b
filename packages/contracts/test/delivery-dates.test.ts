import { addBusinessDays, arrivesByOf, businessDaysBetween, printedDelivery, shipsTooEarly } from '../src';

// 2026-12-06 is a Sunday.
describe('delivery dates', () => {
  it('counts business days Monday to Saturday', () => {
    expect(addBusinessDays('2026-12-04', 1)).toBe('2026-12-05'); // Friday → Saturday
    expect(addBusinessDays('2026-12-05', 1)).toBe('2026-12-07'); // Saturday → Monday, over the Sunday
    expect(addBusinessDays('2026-12-06', 0)).toBe('2026-12-07'); // a Sunday moves to Monday
    expect(addBusinessDays('2026-12-07', -1)).toBe('2026-12-05');
    expect(businessDaysBetween('2026-12-05', '2026-12-07')).toBe(1);
    expect(businessDaysBetween('2026-12-07', '2026-12-05')).toBe(-1);
  });

  it('ships an ordinary printed copy within the dispatch time, arriving after the slowest transit', () => {
    expect(printedDelivery('2026-12-01')).toEqual({ shipBy: '2026-12-03', arrivesFrom: '2026-12-09', arrivesBy: '2026-12-11', late: false });
  });

  it('ships a gift so that the slowest courier still arrives on its day', () => {
    const gift = printedDelivery('2026-11-27', '2026-12-24');
    expect(gift).toEqual({ shipBy: '2026-12-16', arrivesFrom: '2026-12-05', arrivesBy: '2026-12-24', late: false });
    expect(addBusinessDays(gift.shipBy, 7)).toBe('2026-12-24');
  });

  it('flags a gift day too close to meet and ships it at once', () => {
    expect(printedDelivery('2026-12-01', '2026-12-04')).toEqual({ shipBy: '2026-12-03', arrivesFrom: '2026-12-09', arrivesBy: '2026-12-11', late: true });
  });

  it('warns before shipping far ahead of the ship-by date, not a day or two', () => {
    expect(shipsTooEarly('2026-12-01', '2026-12-16')).toBe(13);
    expect(shipsTooEarly('2026-12-14', '2026-12-16')).toBeNull();
    expect(shipsTooEarly('2026-12-18', '2026-12-16')).toBeNull();
  });

  it('reads the arrival back from a stored ship-by date exactly as printedDelivery said it at payment', () => {
    // Every order day of a month against gift days from none to seven weeks ahead, Sundays included.
    for (let d = 1; d <= 30; d += 1) {
      const orderedOn = `2026-11-${String(d).padStart(2, '0')}`;
      for (const ahead of [null, 0, 3, 9, 10, 11, 12, 20, 49]) {
        const giftDay = ahead === null ? null : addDays(orderedOn, ahead);
        const delivery = printedDelivery(orderedOn, giftDay);
        expect({ orderedOn, giftDay, arrivesBy: arrivesByOf(delivery.shipBy, giftDay) }).toEqual({ orderedOn, giftDay, arrivesBy: delivery.arrivesBy });
      }
    }
  });
});

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
