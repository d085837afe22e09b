// When the reconciler asks the provider about an unpaid order (DESIGN §4): a couple of minutes
// after its Razorpay order was made (a buyer's browser that died after paying is caught then),
// then less and less often over three days, an abandoned checkout costing a dozen questions in
// all. Every order keeps its own due time, so a shop with thousands of abandoned checkouts still
// asks about each new one within minutes.

const MINUTE = 60_000;

/** When each question is due, counted from the order's making: 2, 5, 10, 20 and 40 minutes, then 1.5, 3, 6, 12, 24, 48 and 72 hours. */
export const PAYMENT_CHECK_SCHEDULE_MS: readonly number[] = [2, 5, 10, 20, 40, 90, 180, 360, 720, 1440, 2880, 4320].map((m) => m * MINUTE);

/** The least time between two questions about one order. */
export const PAYMENT_CHECK_MIN_GAP_MS = MINUTE;

/**
 * When to ask next about an order made at `createdAt`, asked (or made) at `now`: the first time of
 * the schedule at least a minute ahead, so a reconciler that was stopped skips the questions it
 * missed rather than asking them all at once; null once the schedule is over.
 */
export function nextPaymentCheck(createdAt: Date, now: Date): Date | null {
  const earliest = now.getTime() + PAYMENT_CHECK_MIN_GAP_MS;
  for (const after of PAYMENT_CHECK_SCHEDULE_MS) {
    const due = createdAt.getTime() + after;
    if (due >= earliest) return new Date(due);
  }
  return null;
}
