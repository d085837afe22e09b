// When a printed copy leaves and when it arrives (issue 24): one rule for the checkout's
// "arrives by", the order's ship-by date, the dispatch list's order and the e-mails.
// Days are the shop's (India time, YYYY-MM-DD); couriers work Monday to Saturday.
import { shopDate } from './orders';

/** A printed copy is printed and handed to the courier within this many business days of payment. */
export const DISPATCH_BUSINESS_DAYS = 2;
/** The courier takes this many business days after dispatch (spec §9: 5 to 7). */
export const TRANSIT_BUSINESS_DAYS = { min: 5, max: 7 } as const;
/** Shipping a gift more than this many business days before its ship-by date earns a warning. */
export const EARLY_SHIP_WARNING_BUSINESS_DAYS = 3;

const DAY_MS = 86_400_000;

function toUtc(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

function fromUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whether couriers work that day (Sunday is the only day off). */
export function isBusinessDay(date: string): boolean {
  return new Date(toUtc(date)).getUTCDay() !== 0;
}

/** `date` moved by `days` business days (negative: back); `0` is the day itself, moved forward to a business day. */
export function addBusinessDays(date: string, days: number): string {
  let at = toUtc(date);
  const step = days < 0 ? -DAY_MS : DAY_MS;
  while (!isBusinessDay(fromUtc(at))) at += step;
  for (let left = Math.abs(days); left > 0;) {
    at += step;
    if (isBusinessDay(fromUtc(at))) left -= 1;
  }
  return fromUtc(at);
}

/** Business days from `from` to `to` (negative when `to` is earlier); Sundays do not count. */
export function businessDaysBetween(from: string, to: string): number {
  const sign = to < from ? -1 : 1;
  const [start, b] = sign === 1 ? [toUtc(from), toUtc(to)] : [toUtc(to), toUtc(from)];
  let a = start;
  let days = 0;
  while (a < b) {
    a += DAY_MS;
    if (isBusinessDay(fromUtc(a))) days += 1;
  }
  return sign * days;
}

/** Calendar days from `from` to `to`. */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to) - toUtc(from)) / DAY_MS);
}

export interface PrintedDelivery {
  /** The last day the copy may leave the shop (YYYY-MM-DD). */
  shipBy: string;
  /** The slowest courier's arrival when shipped on `shipBy`. */
  arrivesBy: string;
  /** The earliest it could arrive, shipped at once. */
  arrivesFrom: string;
  /** A gift's day that cannot be met even if shipped at once (the buyer is told before paying). */
  late: boolean;
}

/**
 * A printed copy ordered (paid) on `orderedOn`: without a gift day it ships within the dispatch
 * time; for a gift day it ships so that the slowest courier still arrives by that day, and never
 * before it could be printed. A day too close to be met ships as soon as it can, flagged `late`.
 */
export function printedDelivery(orderedOn: string, giftDay?: string | null): PrintedDelivery {
  const soonest = addBusinessDays(orderedOn, DISPATCH_BUSINESS_DAYS);
  const arrivesFrom = addBusinessDays(soonest, TRANSIT_BUSINESS_DAYS.min);
  if (!giftDay) return { shipBy: soonest, arrivesBy: addBusinessDays(soonest, TRANSIT_BUSINESS_DAYS.max), arrivesFrom, late: false };
  // Back from the gift day by the slowest transit: the last business day that still makes it.
  let shipBy = addBusinessDays(giftDay, -TRANSIT_BUSINESS_DAYS.max);
  const late = shipBy < soonest;
  if (late) shipBy = soonest;
  const arrivesBy = addBusinessDays(shipBy, TRANSIT_BUSINESS_DAYS.max);
  return { shipBy, arrivesBy: late || arrivesBy > giftDay ? arrivesBy : giftDay, arrivesFrom, late };
}

/**
 * The day a copy with ship-by date `shipBy` arrives by (printedDelivery's `arrivesBy`, from the
 * stored ship-by date): the slowest courier's day, or the gift's day when that is later.
 */
export function arrivesByOf(shipBy: string, giftDay?: string | null): string {
  const slowest = addBusinessDays(shipBy, TRANSIT_BUSINESS_DAYS.max);
  return giftDay && giftDay > slowest ? giftDay : slowest;
}

/** The shop's day of `at` (payment time), for printedDelivery. */
export function orderedOnOf(at: Date): string {
  return shopDate(at);
}

/**
 * Shipping on `today` a copy whose ship-by date is `shipBy`: how many business days early it
 * would leave when that is more than the warning's margin (a gift could arrive a week before its
 * day), else null.
 */
export function shipsTooEarly(today: string, shipBy: string): number | null {
  const early = businessDaysBetween(today, shipBy);
  return early > EARLY_SHIP_WARNING_BUSINESS_DAYS ? early : null;
}
