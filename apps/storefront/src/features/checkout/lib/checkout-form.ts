// The checkout form (spec §3, §5): its values, its rules, the totals it shows and the
// initiation request it sends. Pure, so every rule is unit-tested.
import type { Book, DeliveryType, InitiatePaymentBody, OrderAmount } from '@persona/contracts';
import {
  computeOrderAmount,
  COUPON_CODE_PATTERN,
  normalizeCouponCode,
  GIFT_MAX_DAYS_AHEAD,
  giftMessageProblem,
  INDIAN_STATES,
  paiseToRupees,
  PHONE_PATTERN,
  printedNameProblem,
  rupeesToPaise,
  shopDate,
  ZIP_MESSAGE,
  ZIP_PATTERN,
} from '@persona/contracts';

export interface CheckoutValues {
  fullName: string;
  email: string;
  phone: string;
  /** The buyer's GST state code: the tax invoice's place of supply (optional; empty: not said). */
  state: string;
  deliveryType: DeliveryType;
  line1: string;
  city: string;
  zip: string;
  country: string;
  /** "This is a gift" (DESIGN §12): the recipient's name is printed instead of the buyer's. */
  isGift: boolean;
  recipientName: string;
  message: string;
  recipientEmail: string;
  /** YYYY-MM-DD; empty: today. */
  deliverOn: string;
}

export type CheckoutField = Exclude<keyof CheckoutValues, 'deliveryType' | 'isGift'>;
export type CheckoutErrors = Partial<Record<CheckoutField, string>>;

/** Spec §3: delivery is digital unless the buyer picks physical. */
export const EMPTY_CHECKOUT: CheckoutValues = {
  fullName: '',
  email: '',
  phone: '',
  state: '',
  deliveryType: 'digital',
  line1: '',
  city: '',
  zip: '',
  country: 'India',
  isGift: false,
  recipientName: '',
  message: '',
  recipientEmail: '',
  deliverOn: '',
};

/** Fields in the order they appear, so the first invalid one gets focus. */
export const CHECKOUT_FIELD_ORDER: readonly CheckoutField[] = [
  'fullName',
  'email',
  'phone',
  'state',
  'recipientName',
  'message',
  'recipientEmail',
  'deliverOn',
  'line1',
  'city',
  'zip',
  'country',
];
export const ADDRESS_FIELDS: readonly CheckoutField[] = ['line1', 'city', 'zip', 'country'];
export const GIFT_FIELDS: readonly CheckoutField[] = ['recipientName', 'message', 'recipientEmail', 'deliverOn'];

export const CHECKOUT_MESSAGES = {
  fullName: 'Please enter your full name',
  email: 'Please enter a valid email address',
  phone: 'Please enter a valid phone number',
  line1: 'Please enter your address',
  city: 'Please enter your city',
  zip: ZIP_MESSAGE,
  country: 'Please enter your country',
  state: 'Please choose your state from the list',
  recipientName: "Please enter the recipient's name",
  message: 'Please shorten the message',
  recipientEmail: 'Please enter a valid email address for the recipient, or leave it empty',
  deliverOn: 'Please choose today or a later date',
} as const satisfies Record<CheckoutField, string>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = new RegExp(PHONE_PATTERN);
const ZIP = new RegExp(ZIP_PATTERN);

/** The fields shown (and so checked) for a delivery type, with the gift's when it is one. */
export function visibleFields(deliveryType: DeliveryType, isGift = false): CheckoutField[] {
  return CHECKOUT_FIELD_ORDER.filter((field) => (deliveryType === 'physical' || !ADDRESS_FIELDS.includes(field)) && (isGift || !GIFT_FIELDS.includes(field)));
}

/** Every broken rule, keyed by field; empty when the form may be sent. Hidden address and gift fields are never checked. */
export function validateCheckout(values: CheckoutValues, now = new Date()): CheckoutErrors {
  const errors: CheckoutErrors = {};
  const text = (field: CheckoutField) => values[field].trim();
  // The spec's message for an empty name; the Persona's printing rules (printable-text) for the rest.
  if (!text('fullName')) errors.fullName = CHECKOUT_MESSAGES.fullName;
  else {
    const problem = printedNameProblem(values.fullName, 'Your name');
    if (problem) errors.fullName = problem;
  }
  if (values.isGift) {
    if (!text('recipientName')) errors.recipientName = CHECKOUT_MESSAGES.recipientName;
    else {
      const problem = printedNameProblem(values.recipientName, "The recipient's name");
      if (problem) errors.recipientName = problem;
    }
    const messageProblem = values.message ? giftMessageProblem(values.message) : null;
    if (messageProblem) errors.message = messageProblem;
    if (text('recipientEmail') && !EMAIL.test(text('recipientEmail'))) errors.recipientEmail = CHECKOUT_MESSAGES.recipientEmail;
    const day = text('deliverOn');
    if (day && (day < shopDate(now) || day > shopDate(now, -GIFT_MAX_DAYS_AHEAD))) errors.deliverOn = CHECKOUT_MESSAGES.deliverOn;
  }
  if (!EMAIL.test(text('email'))) errors.email = CHECKOUT_MESSAGES.email;
  if (!PHONE.test(text('phone'))) errors.phone = CHECKOUT_MESSAGES.phone;
  if (text('state') && !INDIAN_STATES.some((state) => state.code === text('state'))) errors.state = CHECKOUT_MESSAGES.state;
  if (values.deliveryType === 'physical') {
    if (!text('line1')) errors.line1 = CHECKOUT_MESSAGES.line1;
    if (!text('city')) errors.city = CHECKOUT_MESSAGES.city;
    if (!ZIP.test(text('zip'))) errors.zip = CHECKOUT_MESSAGES.zip;
    if (!text('country')) errors.country = CHECKOUT_MESSAGES.country;
  }
  return errors;
}

export function firstInvalidField(errors: CheckoutErrors): CheckoutField | null {
  return CHECKOUT_FIELD_ORDER.find((field) => errors[field]) ?? null;
}

export interface CheckoutTotals {
  /** Rupees. */
  base: number;
  printing: number;
  delivery: number;
  total: number;
  /** The fee lines appear only for a printed copy. */
  showFees: boolean;
  /** A coupon's discount (rupees), when one applies; `total` is after it. */
  discount?: number;
}

/** What the summary shows, computed exactly as the server charges it (DESIGN §9.4). */
export function checkoutTotals(book: Pick<Book, 'price' | 'printingCost'>, deliveryType: DeliveryType): CheckoutTotals {
  return totalsFromBreakdown(
    computeOrderAmount({ pricePaise: rupeesToPaise(book.price), printingCostPaise: rupeesToPaise(book.printingCost ?? 0) }, deliveryType),
    deliveryType,
  );
}

/** The summary of what the server charges (its answer to the initiation): what the buyer pays, whatever the page had computed. */
export function totalsFromBreakdown(amount: OrderAmount & { discountPaise?: number }, deliveryType: DeliveryType): CheckoutTotals {
  return {
    base: paiseToRupees(amount.basePaise),
    printing: paiseToRupees(amount.printingPaise),
    delivery: paiseToRupees(amount.deliveryPaise),
    total: paiseToRupees(amount.totalPaise),
    showFees: deliveryType === 'physical',
    ...(amount.discountPaise ? { discount: paiseToRupees(amount.discountPaise) } : {}),
  };
}

/**
 * The spec §3 initiation request: trimmed values, the address only for a printed copy,
 * the persona id as null. The amount is informative; the server computes its own (DESIGN §9.5).
 * A coupon travels as its code only: the server prices it.
 */
export function buildInitiateBody(book: Pick<Book, '_id' | 'price' | 'printingCost'>, values: CheckoutValues, coupon?: string): InitiatePaymentBody {
  const totals = checkoutTotals(book, values.deliveryType);
  return {
    book: book._id,
    fullName: values.fullName.trim(),
    email: values.email.trim(),
    phone: values.phone.trim(),
    deliveryType: values.deliveryType,
    address:
      values.deliveryType === 'physical'
        ? { line1: values.line1.trim(), city: values.city.trim(), zip: values.zip.trim(), country: values.country.trim() }
        : null,
    amount: totals.total,
    shippingFee: totals.delivery,
    personaId: null,
    ...(values.state.trim() ? { state: values.state.trim() as InitiatePaymentBody['state'] } : {}),
    ...(coupon ? { coupon } : {}),
    ...(values.isGift
      ? {
          gift: {
            recipientName: values.recipientName.trim(),
            ...(values.message.trim() ? { message: values.message.trim() } : {}),
            ...(values.recipientEmail.trim() ? { recipientEmail: values.recipientEmail.trim() } : {}),
            ...(values.deliverOn.trim() ? { deliverOn: values.deliverOn.trim() } : {}),
          },
        }
      : {}),
  };
}

const COUPON_CODE = new RegExp(COUPON_CODE_PATTERN);

/** A code as typed, ready to send (trimmed, in capitals), or null when it cannot be one. */
export function couponCodeFrom(typed: string): string | null {
  const code = normalizeCouponCode(typed);
  return code.length <= 32 && COUPON_CODE.test(code) ? code : null;
}

/** The e-mail typed when it looks like one (a code's per-buyer share is judged with it), else nothing. */
export function emailForCoupon(typed: string): string | undefined {
  const email = typed.trim();
  return EMAIL.test(email) ? email : undefined;
}
