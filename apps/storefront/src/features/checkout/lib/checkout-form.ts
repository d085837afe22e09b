// The checkout form (spec §3, §5): its values, its rules, the totals it shows and the
// initiation request it sends. Pure, so every rule is unit-tested.
import type { Book, DeliveryType, InitiatePaymentBody, OrderAmount } from '@persona/contracts';
import { computeOrderAmount, paiseToRupees, PHONE_PATTERN, rupeesToPaise, ZIP_MESSAGE, ZIP_PATTERN } from '@persona/contracts';

export interface CheckoutValues {
  fullName: string;
  email: string;
  phone: string;
  deliveryType: DeliveryType;
  line1: string;
  city: string;
  zip: string;
  country: string;
}

export type CheckoutField = Exclude<keyof CheckoutValues, 'deliveryType'>;
export type CheckoutErrors = Partial<Record<CheckoutField, string>>;

/** Spec §3: delivery is digital unless the buyer picks physical. */
export const EMPTY_CHECKOUT: CheckoutValues = {
  fullName: '',
  email: '',
  phone: '',
  deliveryType: 'digital',
  line1: '',
  city: '',
  zip: '',
  country: 'India',
};

/** Fields in the order they appear, so the first invalid one gets focus. */
export const CHECKOUT_FIELD_ORDER: readonly CheckoutField[] = ['fullName', 'email', 'phone', 'line1', 'city', 'zip', 'country'];
export const ADDRESS_FIELDS: readonly CheckoutField[] = ['line1', 'city', 'zip', 'country'];

export const CHECKOUT_MESSAGES = {
  fullName: 'Please enter your full name',
  email: 'Please enter a valid email address',
  phone: 'Please enter a valid phone number',
  line1: 'Please enter your address',
  city: 'Please enter your city',
  zip: ZIP_MESSAGE,
  country: 'Please enter your country',
} as const satisfies Record<CheckoutField, string>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = new RegExp(PHONE_PATTERN);
const ZIP = new RegExp(ZIP_PATTERN);

/** The fields shown (and so required) for a delivery type. */
export function visibleFields(deliveryType: DeliveryType): CheckoutField[] {
  return CHECKOUT_FIELD_ORDER.filter((field) => deliveryType === 'physical' || !ADDRESS_FIELDS.includes(field));
}

/** Every broken rule, keyed by field; empty when the form may be sent. Hidden address fields are never checked. */
export function validateCheckout(values: CheckoutValues): CheckoutErrors {
  const errors: CheckoutErrors = {};
  const text = (field: CheckoutField) => values[field].trim();
  if (!text('fullName')) errors.fullName = CHECKOUT_MESSAGES.fullName;
  if (!EMAIL.test(text('email'))) errors.email = CHECKOUT_MESSAGES.email;
  if (!PHONE.test(text('phone'))) errors.phone = CHECKOUT_MESSAGES.phone;
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
}

/** What the summary shows, computed exactly as the server charges it (DESIGN §9.4). */
export function checkoutTotals(book: Pick<Book, 'price' | 'printingCost'>, deliveryType: DeliveryType): CheckoutTotals {
  return totalsFromBreakdown(
    computeOrderAmount({ pricePaise: rupeesToPaise(book.price), printingCostPaise: rupeesToPaise(book.printingCost ?? 0) }, deliveryType),
    deliveryType,
  );
}

/** The summary of what the server charges (its answer to the initiation): what the buyer pays, whatever the page had computed. */
export function totalsFromBreakdown(amount: OrderAmount, deliveryType: DeliveryType): CheckoutTotals {
  return {
    base: paiseToRupees(amount.basePaise),
    printing: paiseToRupees(amount.printingPaise),
    delivery: paiseToRupees(amount.deliveryPaise),
    total: paiseToRupees(amount.totalPaise),
    showFees: deliveryType === 'physical',
  };
}

/**
 * The spec §3 initiation request: trimmed values, the address only for a printed copy,
 * the persona id as null. The amount is informative; the server computes its own (DESIGN §9.5).
 */
export function buildInitiateBody(book: Pick<Book, '_id' | 'price' | 'printingCost'>, values: CheckoutValues): InitiatePaymentBody {
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
  };
}
