import type { SalesDay } from '@persona/contracts';
import { niceScale, salesChart } from './sales-chart';

const day = (date: string, revenue: number, orders = revenue > 0 ? 1 : 0): SalesDay => ({ date, revenue, orders });
const month = (revenues: number[]) => revenues.map((r, i) => day(`2026-11-${String(i + 1).padStart(2, '0')}`, r));

describe('niceScale', () => {
  it('puts value lines a round step apart, about four of them, the top at or above the highest value', () => {
    expect(niceScale(0)).toEqual({ step: 25, max: 100 });
    expect(niceScale(2_000)).toEqual({ step: 500, max: 2_000 });
    expect(niceScale(2_100)).toEqual({ step: 1_000, max: 3_000 });
    expect(niceScale(7_300)).toEqual({ step: 2_000, max: 8_000 });
    expect(niceScale(123_456)).toEqual({ step: 50_000, max: 150_000 });
    expect(niceScale(0.5)).toEqual({ step: 25, max: 100 });
  });
});

describe('salesChart', () => {
  it('scales every bar against a round top, side by side across the whole width', () => {
    const chart = salesChart(month([0, 1_000, 2_000, 500]));
    expect(chart.max).toBe(2_000);
    expect(chart.bars.map((b) => b.height)).toEqual([0, 50, 100, 25]);
    expect(chart.bars[0]!.x).toBeCloseTo(3.75);
    expect(chart.bars[3]!.x + chart.bars[3]!.width).toBeCloseTo(96.25);
    for (let i = 1; i < chart.bars.length; i += 1) expect(chart.bars[i]!.x).toBeGreaterThan(chart.bars[i - 1]!.x + chart.bars[i - 1]!.width);
    expect(chart.ticks).toEqual([
      { value: 0, at: 0 },
      { value: 500, at: 25 },
      { value: 1_000, at: 50 },
      { value: 1_500, at: 75 },
      { value: 2_000, at: 100 },
    ]);
  });

  it('names today and every seventh day before it under the axis', () => {
    const days = month(Array.from({ length: 30 }, () => 10));
    expect(salesChart(days).labels.map((l) => l.date)).toEqual(['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23', '2026-11-30']);
    // A phone names every other one: today and two and four weeks before.
    expect(
      salesChart(days)
        .labels.filter((l) => !l.minor)
        .map((l) => l.date),
    ).toEqual(['2026-11-02', '2026-11-16', '2026-11-30']);
  });

  it('totals the days in whole paise and finds the best one', () => {
    const chart = salesChart([day('2026-11-01', 0.1), day('2026-11-02', 0.2, 2), day('2026-11-03', 0.15)]);
    expect(chart.total).toEqual({ revenue: 0.45, orders: 4 });
    expect(chart.best).toEqual(day('2026-11-02', 0.2, 2));
  });

  it('draws an empty month flat on a scale that still reads', () => {
    const chart = salesChart(month([0, 0, 0]));
    expect(chart.bars.every((b) => b.height === 0)).toBe(true);
    expect(chart.max).toBe(100);
    expect(chart.ticks.map((t) => t.value)).toEqual([0, 25, 50, 75, 100]);
    expect(chart.best).toBeNull();
  });
});
