// The receipt /payment-success shows: the verify answer's `receipt`, carried in the navigation's
// state (so it survives a reload of the tab, and nobody else's link shows it), read back with
// care (a state from an older build or another page is ignored), and turned into lines.
import { addressOneLine, formatInr, type PersonaFormat, type Receipt } from '@persona/contracts';
import { formatLongDate } from '../../../lib/format-date';
import { DISPATCH_DAYS, personaFormatLabel, TRANSIT_DAYS } from '../../../lib/persona-formats';

/** The navigation state the checkout leaves for the success page. */
export interface PaymentSuccessState {
  receipt: Receipt;
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isAmount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The receipt in a navigation state, or null when there is none (a reload, a shared link, an older shape). */
export function readReceipt(state: unknown): Receipt | null {
  const receipt = (state as { receipt?: unknown } | null)?.receipt as Partial<Receipt> | undefined;
  if (!receipt || typeof receipt !== 'object') return null;
  const { book, breakdown, address } = receipt;
  const ok =
    isText(book?.title) &&
    isText(book?.author) &&
    (receipt.deliveryType === 'digital' || receipt.deliveryType === 'physical') &&
    isAmount(receipt.amountPaid) &&
    isAmount(breakdown?.base) &&
    isAmount(breakdown?.printing) &&
    isAmount(breakdown?.delivery) &&
    isText(receipt.email) &&
    isText(receipt.paidAt) &&
    (address === null || (isText(address?.line1) && isText(address?.city) && isText(address?.zip) && isText(address?.country))) &&
    (receipt.gift === null ||
      receipt.gift === undefined ||
      (isText(receipt.gift.recipientName) && isText(receipt.gift.deliverOn) && (receipt.gift.recipientEmail === null || isText(receipt.gift.recipientEmail))));
  return ok ? ({ ...receipt, gift: receipt.gift ?? null } as Receipt) : null;
}

export interface ReceiptView {
  rows: Array<[string, string]>;
  emailedTo: string;
  /** A gift: for whom, and when it reaches them (or that the buyer hands it over). */
  gift: string | null;
  delivery: { address: string; estimate: string } | null;
}

/** `files`: the Persona's files once the order has them, so the format names what comes ("PDF + EPUB"). */
export function receiptView(receipt: Receipt, files: readonly PersonaFormat[] = []): ReceiptView {
  const physical = receipt.deliveryType === 'physical';
  const discount = receipt.breakdown.discount && receipt.breakdown.discount > 0 ? receipt.breakdown.discount : null;
  return {
    rows: [
      ['Book', `${receipt.book.title} by ${receipt.book.author}`],
      ['Format', personaFormatLabel(receipt.deliveryType, files)],
      ...(physical
        ? ([
            ['Book price', formatInr(receipt.breakdown.base)],
            ['Printing', formatInr(receipt.breakdown.printing)],
            ['Delivery', formatInr(receipt.breakdown.delivery)],
          ] as Array<[string, string]>)
        : discount
          ? ([['Book price', formatInr(receipt.breakdown.base)]] as Array<[string, string]>)
          : []),
      // A coupon's discount, so that the parts add up to what was paid.
      ...(discount ? ([[`Discount (${receipt.coupon ?? 'coupon'})`, `−${formatInr(discount)}`]] as Array<[string, string]>) : []),
      ['Amount paid', formatInr(receipt.amountPaid)],
      ['Paid on', formatLongDate(receipt.paidAt)],
    ],
    emailedTo: receipt.email,
    gift: receipt.gift
      ? receipt.gift.recipientEmail
        ? `A gift for ${receipt.gift.recipientName}: we e-mail it to ${receipt.gift.recipientEmail} on ${formatLongDate(receipt.gift.deliverOn)}.`
        : `A gift for ${receipt.gift.recipientName}: their name is printed in it, and the download is yours to hand over.`
      : null,
    delivery:
      physical && receipt.address
        ? {
            address: addressOneLine(receipt.address),
            // The day the shop promised (contracts' printedDelivery, a gift's day when it can be met); else the usual times.
            estimate: receipt.arrivesBy
              ? `Arrives by ${formatLongDate(receipt.arrivesBy)}.`
              : `Dispatched within ${DISPATCH_DAYS}, delivered ${TRANSIT_DAYS} later.`,
          }
        : null,
  };
}
