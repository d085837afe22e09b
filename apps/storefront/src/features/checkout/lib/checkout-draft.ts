// What the buyer typed at checkout, kept in this tab (sessionStorage) when they submit, so that
// "Try again" after a declined payment opens the form as they left it, not empty. Only the
// form's own fields (never anything of the payment), dropped once a payment succeeds.
import type { CheckoutValues } from './checkout-form';
import { EMPTY_CHECKOUT } from './checkout-form';

export const CHECKOUT_DRAFT_KEY = 'persona.checkout-draft';
/** Longer than any field the form accepts; anything longer was not written by this form. */
const MAX_LENGTH = 500;

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function saveCheckoutDraft(storage: DraftStorage, values: CheckoutValues): void {
  try {
    storage.setItem(CHECKOUT_DRAFT_KEY, JSON.stringify(values));
  } catch {
    // Storage full or disabled: the form simply starts empty next time.
  }
}

/** The saved form, or null when there is none or it is not one this form wrote. */
export function readCheckoutDraft(storage: DraftStorage): CheckoutValues | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(storage.getItem(CHECKOUT_DRAFT_KEY) ?? 'null');
  } catch {
    // Unreadable (or storage disabled): start empty.
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const record = parsed as Record<string, unknown>;
  const draft: CheckoutValues = { ...EMPTY_CHECKOUT };
  for (const key of Object.keys(EMPTY_CHECKOUT) as (keyof CheckoutValues)[]) {
    const value = record[key];
    if (value === undefined) continue;
    if (key === 'isGift') {
      if (typeof value !== 'boolean') return null;
      draft.isGift = value;
      continue;
    }
    if (typeof value !== 'string' || value.length > MAX_LENGTH) return null;
    if (key === 'deliveryType') {
      if (value !== 'digital' && value !== 'physical') return null;
      draft.deliveryType = value;
    } else draft[key] = value;
  }
  return draft;
}

export function clearCheckoutDraft(storage: DraftStorage): void {
  try {
    storage.removeItem(CHECKOUT_DRAFT_KEY);
  } catch {
    // Nothing to clear where storage is disabled.
  }
}
