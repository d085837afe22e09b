// The name (and a gift's message) the visitor wants printed, kept in this tab (sessionStorage) so
// that it follows them between the book page's preview, the home page's "Try it with your name"
// and the checkout, whichever way they go. Only what is printed: never an address or anything of
// a payment.

export const PERSONA_DRAFT_KEY = 'persona.persona-draft';
/** Longer than the printed name or a gift message may be; anything longer was not written by the shop. */
const MAX_LENGTH = 500;

export interface PersonaDraft {
  /** The name printed on the dedication page: the buyer's, or a gift's recipient. */
  name: string;
  /** A gift's message; empty when the Persona is not a gift. */
  message: string;
}

type DraftStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Paid: what was printed is not offered to the next order (a gift's message is not the next book's). */
export function clearPersonaDraft(storage: Pick<Storage, 'removeItem'>): void {
  try {
    storage.removeItem(PERSONA_DRAFT_KEY);
  } catch {
    // Storage disabled: nothing was kept.
  }
}

export function savePersonaDraft(storage: DraftStorage, draft: PersonaDraft): void {
  try {
    storage.setItem(PERSONA_DRAFT_KEY, JSON.stringify({ name: draft.name, message: draft.message }));
  } catch {
    // Storage full or disabled: the name simply has to be typed again.
  }
}

/** The saved draft, or null when there is none or it is not one the shop wrote. */
export function readPersonaDraft(storage: DraftStorage): PersonaDraft | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(storage.getItem(PERSONA_DRAFT_KEY) ?? 'null');
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const { name, message } = parsed as Record<string, unknown>;
  const text = (value: unknown): value is string => typeof value === 'string' && value.length <= MAX_LENGTH;
  if (!text(name) || !(message === undefined || text(message))) return null;
  return { name, message: message ?? '' };
}

/** The checkout fields that make the printed page (the form has more; only these are read or written). */
export interface PrintedFields {
  fullName: string;
  isGift: boolean;
  recipientName: string;
  message: string;
  deliverOn: string;
}

/** What the checkout prints: the recipient's name and the message for a gift, else the buyer's own name. */
export function draftFromCheckout(values: PrintedFields): PersonaDraft {
  return values.isGift ? { name: values.recipientName, message: values.message } : { name: values.fullName, message: '' };
}

/**
 * The checkout form with the draft typed elsewhere in it. A message makes it a gift (only a gift
 * carries one), delivered today unless a day was already chosen; a name alone goes where the form
 * prints from: the recipient's name when it is a gift, else the buyer's.
 */
export function checkoutWithDraft<T extends PrintedFields>(values: T, draft: PersonaDraft | null, today: string): T {
  if (!draft || !draft.name.trim()) return values;
  if (draft.message.trim()) {
    return { ...values, isGift: true, recipientName: draft.name, message: draft.message, deliverOn: values.deliverOn || today };
  }
  return values.isGift ? { ...values, recipientName: draft.name } : { ...values, fullName: draft.name };
}
