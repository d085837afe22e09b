// The dashboard's revenue chart as numbers: where each day's bar stands (in percent of the plot,
// so the SVG can stretch to any width while its labels stay HTML text of a readable size), the
// value lines of a round scale, and which days are named under the axis.
import type { SalesDay } from '@persona/contracts';

export interface ChartBar {
  date: string;
  revenue: number;
  orders: number;
  /** Left edge and width in percent of the plot's width; height in percent of its height. */
  x: number;
  width: number;
  height: number;
}

export interface ChartTick {
  value: number;
  /** Height above the axis, in percent of the plot. */
  at: number;
}

export interface SalesChartModel {
  bars: ChartBar[];
  ticks: ChartTick[];
  /** The days named under the axis: a week apart, counted back from today so today is named; `minor` every other one (a phone names only the others). */
  labels: Array<{ date: string; at: number; minor: boolean }>;
  /** The top of the scale (rupees). */
  max: number;
  total: { revenue: number; orders: number };
  /** The day with the most revenue, when any day had some. */
  best: SalesDay | null;
}

const TICKS = 4;

/** The round number at or above `value`: 1, 2, 2.5 or 5 times a power of ten. */
export function niceStep(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 2.5, 5, 10].find((s) => s * power >= value)! * power;
}

/**
 * A scale for values up to `highest`: value lines a round step apart (about four of them), the
 * top the first line at or above the highest value; an empty chart still has ₹0–₹100.
 */
export function niceScale(highest: number): { max: number; step: number } {
  const top = Math.max(highest, 100);
  const step = niceStep(top / TICKS);
  return { step, max: step * Math.ceil(top / step) };
}

/** A bar's share of its slot: the rest is the gap between bars. */
const BAR_SHARE = 0.7;

export function salesChart(days: readonly SalesDay[]): SalesChartModel {
  const highest = Math.max(0, ...days.map((d) => d.revenue));
  const { max, step } = niceScale(highest);
  const slot = days.length > 0 ? 100 / days.length : 0;
  const bars = days.map((d, i) => ({
    date: d.date,
    revenue: d.revenue,
    orders: d.orders,
    x: i * slot + (slot * (1 - BAR_SHARE)) / 2,
    width: slot * BAR_SHARE,
    height: (d.revenue / max) * 100,
  }));
  const ticks = Array.from({ length: Math.round(max / step) + 1 }, (_, i) => ({ value: step * i, at: ((step * i) / max) * 100 }));
  const labels = days.flatMap((d, i) => {
    const back = days.length - 1 - i;
    return back % 7 === 0 ? [{ date: d.date, at: i * slot + slot / 2, minor: back % 14 === 7 }] : [];
  });
  const best = highest > 0 ? days.reduce((a, b) => (b.revenue > a.revenue ? b : a)) : null;
  const paise = days.reduce((n, d) => n + Math.round(d.revenue * 100), 0);
  return { bars, ticks, labels, max, total: { revenue: paise / 100, orders: days.reduce((n, d) => n + d.orders, 0) }, best };
}
