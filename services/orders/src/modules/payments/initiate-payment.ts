// Starting a checkout (DESIGN §4, §7): the server reads the book and computes
// every amount, creates the provider's order first and then our order with it
// in one insert, so no order row exists without its payment order. An
// Idempotency-Key makes a retried checkout answer the same order.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  bookPrintProblem,
  computeOrderAmount,
  formatPersonaId,
  GIFT_MAX_DAYS_AHEAD,
  indianStateName,
  PIN_CODE,
  pinCodeStates,
  SHIPPING_COUNTRY,
  SHIPPING_COUNTRY_MESSAGE,
  normalizeCouponCode,
  giftMessageProblem,
  normalizeGiftMessage,
  normalizePrintedName,
  printedNameProblem,
  shopDate,
  ZIP_MESSAGE,
  type Address,
  type InitiatePaymentBody,
  type InitiatePaymentData,
  type OrderAmount,
} from '@persona/contracts';
import { isUniqueViolation } from '@persona/db';
import { badRequest, conflict, HttpError } from '@persona/service-kit';
import * as repo from '../order-records/orders.repository';
import { setRazorpayOrderId } from './payments.repository';
import { couponErrorCode } from '../coupons/coupon-pricing';
import { recordReservation, reserveCouponUse, type CouponHold } from '../coupons/coupon-redemptions';
import { judgeCoupon } from '../coupons/coupons.service';
import { PaymentProviderError, type PaymentProvider } from '../payment-provider/payment-provider';
import type { PaymentsContext } from './payments-context';
import { nextPaymentCheck } from './payment-checks';

function requestHash(body: InitiatePaymentBody): string {
  const { book, fullName, email, phone, deliveryType, address, gift, state } = body;
  const parts: unknown[] = [book, fullName.trim(), email.trim().toLowerCase(), phone.trim(), deliveryType, address];
  // Not a gift (no state) hashes exactly as before gifts (states) existed, so a key reused across the upgrade still matches.
  if (gift) parts.push(gift);
  if (state) parts.push({ state });
  if (body.coupon) parts.push({ coupon: normalizeCouponCode(body.coupon) });
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** A gift as the order keeps it: the printed name and message normalised, the delivery day today unless later. */
export interface GiftColumns {
  gift_recipient_name: string;
  gift_message: string | null;
  gift_recipient_email: string | null;
  gift_deliver_on: string;
}

/**
 * The names printed (the buyer's, a gift's recipient) and a gift's message and day, checked with the
 * checkout's own rules (printable-text): a clear 400 for anything the Persona could not print.
 */
export function checkPrintedText(body: InitiatePaymentBody, now = new Date()): GiftColumns | null {
  const nameProblem = printedNameProblem(body.fullName, 'Full Name');
  if (nameProblem) throw badRequest(nameProblem);
  const { gift } = body;
  if (!gift) return null;
  const recipientProblem = printedNameProblem(gift.recipientName, "The recipient's name");
  if (recipientProblem) throw badRequest(recipientProblem);
  const message = gift.message === undefined ? '' : normalizeGiftMessage(gift.message);
  if (gift.message !== undefined) {
    const messageProblem = giftMessageProblem(gift.message);
    if (messageProblem) throw badRequest(messageProblem);
  }
  const today = shopDate(now);
  const deliverOn = gift.deliverOn ?? today;
  if (deliverOn < today) throw badRequest('The delivery date must be today or later');
  if (deliverOn > shopDate(now, -GIFT_MAX_DAYS_AHEAD)) throw badRequest(`The delivery date must be within ${GIFT_MAX_DAYS_AHEAD} days`);
  return {
    gift_recipient_name: normalizePrintedName(gift.recipientName),
    gift_message: message || null,
    gift_recipient_email: gift.recipientEmail?.trim() || null,
    gift_deliver_on: deliverOn,
  };
}

const stateNames = (codes: readonly string[]) => codes.map((code) => indianStateName(code) ?? code).join(' or ');

/**
 * A printed copy's address as the order keeps it (issue 24), or null for an e-book: a PIN code of
 * India, the country India, the state where that PIN code is (filled from it when not given; a
 * state the PIN code is not in is refused, as is a second, different state for the invoice: a
 * printed book's place of supply is where it is delivered), and the courier's name and phone: as
 * given, else a gift's recipient's name (never the giver's on the recipient's door) or the buyer's,
 * and the buyer's phone.
 */
export function checkShippingAddress(body: InitiatePaymentBody, gift: GiftColumns | null): Address | null {
  if (body.deliveryType !== 'physical') return null;
  const { address } = body;
  if (!address) throw badRequest('An address is needed for physical delivery');
  const zip = address.zip.trim();
  if (!PIN_CODE.test(zip)) throw badRequest(ZIP_MESSAGE);
  if (address.country.trim().toLowerCase() !== SHIPPING_COUNTRY.toLowerCase()) throw badRequest(SHIPPING_COUNTRY_MESSAGE);
  const known = pinCodeStates(zip);
  const state = address.state ?? body.state ?? known[0];
  if (!state) throw badRequest(`Please choose the state of the delivery address (PIN code ${zip})`);
  if (known.length > 0 && !known.includes(state))
    throw badRequest(`The PIN code ${zip} is in ${stateNames(known)}, not ${stateNames([state])}: please check the PIN code and the state`);
  if (body.state && body.state !== state)
    throw badRequest("A printed copy's invoice names the state it is delivered to: the state given differs from the delivery address's");
  const optional = (text: string | undefined) => text?.trim().replace(/\s+/g, ' ') || undefined;
  const name = optional(address.name) ?? gift?.gift_recipient_name ?? normalizePrintedName(body.fullName);
  const line2 = optional(address.line2);
  const landmark = optional(address.landmark);
  return {
    name,
    phone: address.phone?.trim() ?? body.phone.trim(),
    line1: address.line1.trim(),
    ...(line2 ? { line2 } : {}),
    ...(landmark ? { landmark } : {}),
    city: address.city.trim(),
    zip,
    state,
    country: SHIPPING_COUNTRY,
  };
}

/**
 * DESIGN §7: the server decides the amount. The spec's request carries the storefront's own
 * figures (rupees; its client adds the printing cost even to a digital copy): they are read
 * for nothing. The order is charged the server's amount, which the answer carries, so an honest
 * client is served unchanged and a tampered figure changes nothing. A difference is logged.
 */
function clientFiguresDiffer(body: InitiatePaymentBody, amount: OrderAmount): boolean {
  const differs = (rupees: number | undefined, paise: number) => rupees !== undefined && !(Math.abs(rupees * 100 - paise) < 0.5);
  return differs(body.amount, amount.totalPaise) || differs(body.shippingFee, amount.deliveryPaise);
}

function answer(row: repo.OrderRow, provider: PaymentProvider): InitiatePaymentData {
  return {
    // Razorpay Checkout's `amount`: paise.
    amount: row.amount_paise,
    currency: 'INR',
    razorpayOrderId: row.razorpay_order_id!,
    orderId: row.id,
    keyId: provider.keyId,
    testMode: provider.mode === 'test',
    breakdown: {
      basePaise: row.base_paise,
      printingPaise: row.printing_paise,
      deliveryPaise: row.delivery_paise,
      ...(row.coupon_id ? { discountPaise: row.discount_paise } : {}),
      totalPaise: row.amount_paise,
    },
  };
}

/** Creates the Razorpay order (paise; receipt = our order id) for an order, answering its id. */
async function createProviderOrder(ctx: PaymentsContext, order: { id: string; amountPaise: number; bookId: string; deliveryType: string }): Promise<string> {
  let providerOrder;
  try {
    providerOrder = await ctx.provider.createOrder({
      amountPaise: order.amountPaise,
      receipt: order.id.replace(/-/g, '').slice(0, 32),
      notes: { orderId: order.id, bookId: order.bookId, deliveryType: order.deliveryType },
    });
  } catch (err) {
    const message = err instanceof PaymentProviderError ? err.message : 'unknown error';
    throw new HttpError(502, `The payment provider could not start this payment (${message}); please try again`, 'PROVIDER_ERROR');
  }
  if (providerOrder.amountPaise !== order.amountPaise) throw new HttpError(502, 'The payment provider answered a different amount', 'PROVIDER_AMOUNT_MISMATCH');
  return providerOrder.id;
}

/**
 * A replayed checkout (same Idempotency-Key) of an order made before the provider's order came
 * first may lack its provider order: make it now. A fresh order always has one.
 */
async function ensureProviderOrder(ctx: PaymentsContext, row: repo.OrderRow): Promise<repo.OrderRow> {
  if (row.razorpay_order_id) return row;
  const razorpayOrderId = await createProviderOrder(ctx, { id: row.id, amountPaise: row.amount_paise, bookId: row.book_id, deliveryType: row.delivery_type });
  const now = new Date();
  await setRazorpayOrderId(ctx.db, row.id, razorpayOrderId, nextPaymentCheck(now, now));
  return { ...row, razorpay_order_id: razorpayOrderId };
}

/** The order a checkout with this Idempotency-Key already made, if any. */
async function twinOrder(ctx: PaymentsContext, idempotencyKey: string | undefined): Promise<repo.OrderRow | undefined> {
  return idempotencyKey ? repo.findOrderByIdempotencyKey(ctx.db, idempotencyKey) : undefined;
}

/** The order and its code's redemption, in one transaction: the redemption reserved under the code's limits first. */
function insertOrderWithCoupon(ctx: PaymentsContext, order: repo.NewOrder, hold: CouponHold & { updatedAt: number }): Promise<repo.OrderRow> {
  return ctx.db.transaction().execute(async (trx) => {
    const coupon = await reserveCouponUse(trx, hold);
    // Changed since it was judged (an edit in between): the provider's order has the old amount.
    if (coupon.updated_at.getTime() !== hold.updatedAt) throw conflict('This code was changed a moment ago: please try again', 'COUPON_CHANGED');
    const inserted = await repo.insertOrder(trx, order);
    await recordReservation(trx, inserted.id, hold);
    return inserted;
  });
}

export async function initiatePayment(ctx: PaymentsContext, body: InitiatePaymentBody, idempotencyKey: string | undefined): Promise<InitiatePaymentData> {
  const gift = checkPrintedText(body);
  const address = checkShippingAddress(body, gift);
  const hash = requestHash(body);
  if (idempotencyKey) {
    const existing = await repo.findOrderByIdempotencyKey(ctx.db, idempotencyKey);
    if (existing) {
      if (existing.request_hash !== hash) throw conflict('This Idempotency-Key was already used for a different checkout', 'IDEMPOTENCY_KEY_REUSED');
      return answer(await ensureProviderOrder(ctx, existing), ctx.provider);
    }
  }
  const book = await ctx.readBook(body.book, ctx.correlationId);
  const amount = computeOrderAmount(book, body.deliveryType);
  if (amount.totalPaise < 100) throw badRequest('This book cannot be bought online: its price is under ₹1');
  // A book whose Persona could not be printed is not sold (the catalogue refuses such a book; one
  // stored before that rule is caught here, before anyone pays for nothing).
  const printProblem = bookPrintProblem(book);
  if (printProblem)
    throw conflict(`This book cannot be personalised yet: ${printProblem.charAt(0).toLowerCase()}${printProblem.slice(1)}`, 'BOOK_NOT_PRINTABLE');
  // A code is judged with the e-mail's share before anything is made; its redemption is then
  // reserved in the order's own transaction, under the limits (a refusal there rolls the order back).
  let hold: (CouponHold & { code: string; updatedAt: number }) | null = null;
  if (body.coupon) {
    const judged = await judgeCoupon(ctx.db, { code: body.coupon, bookId: book.id, amount, email: body.email });
    if (!judged.coupon || judged.price.reason) {
      // The share this e-mail used may be this very checkout's, sent twice at once: its order is the answer.
      if (await twinOrder(ctx, idempotencyKey)) return initiatePayment(ctx, body, idempotencyKey);
      throw conflict(judged.price.message, couponErrorCode(judged.price.reason ?? 'unknown'));
    }
    hold = {
      couponId: judged.coupon.id,
      code: judged.coupon.code,
      updatedAt: judged.coupon.updated_at.getTime(),
      email: body.email.trim().toLowerCase(),
      discountPaise: judged.price.breakdown.discountPaise,
    };
  }
  const chargedPaise = amount.totalPaise - (hold?.discountPaise ?? 0);
  if (clientFiguresDiffer(body, amount)) {
    ctx.log?.info({ sentAmount: body.amount, sentShippingFee: body.shippingFee, chargedPaise }, 'client figures ignored: the server charges its own amount');
  }
  // The Razorpay order first, then the order row with it in one INSERT: no order row ever lacks its
  // payment order (a failure in between leaves only an unpaid Razorpay order behind, which expires).
  const id = randomUUID();
  const createdAt = new Date();
  const razorpayOrderId = await createProviderOrder(ctx, { id, amountPaise: chargedPaise, bookId: book.id, deliveryType: body.deliveryType });
  const newOrder: repo.NewOrder = {
    id,
    razorpay_order_id: razorpayOrderId,
    payment_check_at: nextPaymentCheck(createdAt, createdAt),
    persona_id: formatPersonaId(randomBytes(10)),
    book_id: book.id,
    book_title: book.title,
    book_author: book.author,
    full_name: normalizePrintedName(body.fullName),
    email: body.email.trim(),
    phone: body.phone.trim(),
    delivery_type: body.deliveryType,
    address,
    base_paise: amount.basePaise,
    printing_paise: amount.printingPaise,
    delivery_paise: amount.deliveryPaise,
    amount_paise: chargedPaise,
    idempotency_key: idempotencyKey ?? null,
    request_hash: hash,
    correlation_id: ctx.correlationId,
    // A printed copy's place of supply is where it goes; an e-book's, the state its buyer named.
    buyer_state: address?.state ?? body.state ?? null,
    ...gift,
    ...(hold ? { coupon_id: hold.couponId, coupon_code: hold.code, discount_paise: hold.discountPaise } : {}),
  };
  let row: repo.OrderRow;
  try {
    row = hold ? await insertOrderWithCoupon(ctx, newOrder, hold) : await repo.insertOrder(ctx.db, newOrder);
  } catch (err) {
    // Two requests with one key raced; the other one created the order (and, with a code, may have taken the use this one was refused).
    if (idempotencyKey && isUniqueViolation(err)) return initiatePayment(ctx, body, idempotencyKey);
    if (err instanceof HttpError && err.code?.startsWith('COUPON_') && (await twinOrder(ctx, idempotencyKey)))
      return initiatePayment(ctx, body, idempotencyKey);
    throw err;
  }
  return answer(row, ctx.provider);
}
