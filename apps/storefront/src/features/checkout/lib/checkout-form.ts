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
  indianStateName,
  paiseToRupees,
  PHONE_PATTERN,
  PIN_CODE,
  pinCodeStates,
  printedDelivery,
  SHIPPING_COUNTRY,
  printedNameProblem,
  rupeesToPaise,
  shopDate,
  ZIP_MESSAGE,
  type PrintedDelivery,
} from '@persona/contracts';

export interface CheckoutValues {
  fullName: string;
  email: string;
  phone: string;
  /**
   * The buyer's GST state code: the tax invoice's place of supply (optional for an e-book; empty:
   * not said). For a printed copy it is the delivery address's state, required (issue 24).
   */
  state: string;
  deliveryType: DeliveryType;
  /** Whom the courier asks for at the door and calls: a gift's recipient, else the buyer (prefilled, see followShipping). */
  shipName: string;
  shipPhone: string;
  line1: string;
  line2: string;
  landmark: string;
  city: string;
  /** The PIN code (the spec's `zip`). */
  zip: string;
  /** Always India: shown, never typed (the shop ships within India). */
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
  shipName: '',
  shipPhone: '',
  line1: '',
  line2: '',
  landmark: '',
  city: '',
  zip: '',
  country: SHIPPING_COUNTRY,
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
  'shipName',
  'shipPhone',
  'zip',
  'city',
  'line1',
  'line2',
  'landmark',
];
/** A printed copy's address, in the order the form shows it (the state, asked of every buyer, is among them then). */
export const ADDRESS_FIELDS: readonly CheckoutField[] = ['shipName', 'shipPhone', 'zip', 'city', 'line1', 'line2', 'landmark'];
export const GIFT_FIELDS: readonly CheckoutField[] = ['recipientName', 'message', 'recipientEmail', 'deliverOn'];

export const CHECKOUT_MESSAGES = {
  fullName: 'Please enter your full name',
  email: 'Please enter a valid email address',
  phone: 'Please enter a valid phone number',
  shipName: 'Please enter the name the courier asks for',
  shipPhone: 'Please enter a phone number the courier can call',
  line1: 'Please enter your address',
  line2: 'Please shorten the second line',
  landmark: 'Please shorten the landmark',
  city: 'Please enter your city',
  zip: ZIP_MESSAGE,
  country: 'Printed copies are delivered within India only',
  state: 'Please choose your state from the list',
  recipientName: "Please enter the recipient's name",
  message: 'Please shorten the message',
  recipientEmail: 'Please enter a valid email address for the recipient, or leave it empty',
  deliverOn: 'Please choose today or a later date',
} as const satisfies Record<CheckoutField, string>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = new RegExp(PHONE_PATTERN);

/**
 * The fields shown (and so checked) for a delivery type, with the gift's when it is one, in the
 * form's order: a printed copy's state sits in its address, after the city.
 */
export function visibleFields(deliveryType: DeliveryType, isGift = false): CheckoutField[] {
  const shown = CHECKOUT_FIELD_ORDER.filter(
    (field) => (deliveryType === 'physical' || !ADDRESS_FIELDS.includes(field)) && (isGift || !GIFT_FIELDS.includes(field)),
  );
  if (deliveryType !== 'physical') return shown;
  const fields: CheckoutField[] = shown.filter((field) => field !== 'state');
  fields.splice(fields.indexOf('city') + 1, 0, 'state');
  return fields;
}

/** Whom a printed copy is addressed to unless the buyer says otherwise: a gift's recipient, else the buyer. */
export const defaultShipName = (values: Pick<CheckoutValues, 'isGift' | 'recipientName' | 'fullName'>) =>
  values.isGift ? values.recipientName : values.fullName;
/** The courier's number unless the buyer says otherwise: the buyer's own for their copy; a gift's recipient's is asked. */
export const defaultShipPhone = (values: Pick<CheckoutValues, 'isGift' | 'phone'>) => (values.isGift ? '' : values.phone);

/**
 * The form after a change: the address's name and phone follow the gift's recipient (or the buyer)
 * while they still read what was prefilled; once the buyer types something else there, it stays.
 */
export function followShipping(previous: CheckoutValues, next: CheckoutValues): CheckoutValues {
  return {
    ...next,
    shipName: previous.shipName === defaultShipName(previous) && next.shipName === previous.shipName ? defaultShipName(next) : next.shipName,
    shipPhone: previous.shipPhone === defaultShipPhone(previous) && next.shipPhone === previous.shipPhone ? defaultShipPhone(next) : next.shipPhone,
  };
}

/** The form with the address's name and phone prefilled where empty (a restored draft, the book page's name). */
export function withShippingDefaults(values: CheckoutValues): CheckoutValues {
  return { ...values, shipName: values.shipName || defaultShipName(values), shipPhone: values.shipPhone || defaultShipPhone(values) };
}

/** What a PIN code tells: its states (most likely first) and, when the directory knows it, its town. */
export interface PinPlace {
  states: readonly string[];
  city?: string;
}

/** The city and state the form last filled from a PIN code (so it may replace them, never what the buyer typed). */
export interface PinFill {
  city: string;
  state: string;
}

/**
 * Fills the city and state from a PIN code (issue 24): the state when it is empty, was filled by an
 * earlier PIN code, or is not one the PIN code can be in; the city when empty or filled before.
 */
export function fillFromPin(values: CheckoutValues, place: PinPlace, filled: PinFill | null): { values: CheckoutValues; filled: PinFill } {
  const state =
    place.states.length > 0 && (!values.state || values.state === filled?.state || !place.states.includes(values.state)) ? place.states[0]! : values.state;
  const city = place.city && (!values.city.trim() || values.city === filled?.city) ? place.city : values.city;
  return { values: { ...values, state, city }, filled: { state, city } };
}

/** "Kochi, Kerala": what the form says it found for a PIN code; null when nothing. */
export function pinPlaceLabel(place: PinPlace | null): string | null {
  if (!place || place.states.length === 0) return null;
  const states = place.states.map((code) => indianStateName(code) ?? code).join(' or ');
  return place.city ? `${place.city}, ${states}` : states;
}

/** When a printed copy ordered today arrives: the ordinary dispatch, or a gift's day (printedDelivery, as the shop reckons it at payment). */
export function checkoutDelivery(values: Pick<CheckoutValues, 'isGift' | 'deliverOn'>, now = new Date()): PrintedDelivery {
  const today = shopDate(now);
  const giftDay = values.isGift && values.deliverOn.trim() >= today ? values.deliverOn.trim() : null;
  return printedDelivery(today, giftDay);
}

/** A shop day as the checkout says it: "Friday, 11 December". */
export function formatDeliveryDay(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-IN', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
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
    if (!text('shipName')) errors.shipName = CHECKOUT_MESSAGES.shipName;
    if (!PHONE.test(text('shipPhone'))) errors.shipPhone = CHECKOUT_MESSAGES.shipPhone;
    if (!text('line1')) errors.line1 = CHECKOUT_MESSAGES.line1;
    if (values.line2.length > 200) errors.line2 = CHECKOUT_MESSAGES.line2;
    if (values.landmark.length > 120) errors.landmark = CHECKOUT_MESSAGES.landmark;
    if (!text('city')) errors.city = CHECKOUT_MESSAGES.city;
    if (!PIN_CODE.test(text('zip'))) errors.zip = CHECKOUT_MESSAGES.zip;
    if (!text('state')) errors.state = CHECKOUT_MESSAGES.state;
    else if (!errors.zip && !errors.state) {
      // The shop refuses a state the PIN code is not in: said here, before paying.
      const states = pinCodeStates(text('zip'));
      if (states.length > 0 && !states.includes(text('state')))
        errors.state = `The PIN code ${text('zip')} is in ${states.map((code) => indianStateName(code)).join(' or ')}: please check the PIN code or the state`;
    }
  }
  return errors;
}

/** The first broken field in the form's order (a printed copy's state after its city). */
export function firstInvalidField(errors: CheckoutErrors, deliveryType: DeliveryType = 'physical', isGift = true): CheckoutField | null {
  return visibleFields(deliveryType, isGift).find((field) => errors[field]) ?? null;
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
        ? {
            name: values.shipName.trim(),
            phone: values.shipPhone.trim(),
            line1: values.line1.trim(),
            ...(values.line2.trim() ? { line2: values.line2.trim() } : {}),
            ...(values.landmark.trim() ? { landmark: values.landmark.trim() } : {}),
            city: values.city.trim(),
            zip: values.zip.trim(),
            ...(values.state.trim() ? { state: values.state.trim() as InitiatePaymentBody['state'] } : {}),
            country: SHIPPING_COUNTRY,
          }
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
