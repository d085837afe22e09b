// The e-mails a buyer gets about an order, each as plain text and HTML from one description
// (email-body): the confirmation when the payment is confirmed (what was bought, the amount,
// the Persona ID and its page, for a printed copy the address and its arrival estimate), the
// Persona's being ready (a download button per format) or having failed (the payment is safe,
// what happens next and by when), and a printed copy's being shipped (the carrier and tracking
// number), delivered or cancelled. A Persona ready before the confirmation went out is told in
// one e-mail, the ready one that is also the receipt (persona-events decides which). Also the one
// the shop sends itself about an order: a paid Persona that failed, with what the owner needs to
// put it right.
import {
  addBusinessDays,
  addressOneLine,
  LIBRARY_LINK_MINUTES,
  paiseToRupees,
  PERSONA_FAILED_NOTICE,
  PERSONA_REMEDY_BUSINESS_DAYS,
  personaDownloadUrl,
  orderInvoiceUrl,
  printedDelivery,
  shopDate,
  shopDayStart,
  TRANSIT_BUSINESS_DAYS,
  type Address,
} from '@persona/contracts';
import type { GiftPictures } from '../catalogue/catalogue-client';
import type { OrderRow } from '../order-records/orders.repository';
import { emailHtml, emailText, type EmailBody, type EmailImage, type EmailLink, type FactValue } from './email-body';
import type { DueEmail, EmailKind, ShopMail } from './emails.repository';

/**
 * How long after payment the confirmation waits: a Persona ready by then is told in one e-mail
 * (the ready one, which is also the receipt) instead of two in the same minute.
 */
export const CONFIRMATION_DELAY_MS = 60_000;

const inr = (paise: number) => `₹${paiseToRupees(paise).toFixed(2)}`;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A shop's day (YYYY-MM-DD) as people write it: "25 November 2026". */
const longDay = (day: string) => {
  const [year, month, date] = day.split('-').map(Number);
  return `${date} ${MONTHS[month! - 1]} ${year}`;
};
/** The date in India at `at`, as people write it. */
const longDate = (at: Date) => longDay(shopDate(at));

/** The hour of the shop's day (India time) a gift's e-mail goes out, unless the Persona is ready later. */
export const GIFT_DELIVERY_HOUR = 9;

/** When a gift's recipient is e-mailed: its day at GIFT_DELIVERY_HOUR, India time. */
export function giftDeliveryTime(deliverOn: string): Date {
  return new Date(shopDayStart(deliverOn).getTime() + GIFT_DELIVERY_HOUR * 3_600_000);
}

type Facts = Array<[string, FactValue]>;

const isGift = (order: OrderRow) => Boolean(order.gift_recipient_name && order.gift_deliver_on);

/** A button per format the Persona has: the PDF always, the EPUB when it was made. */
function downloadActions(order: OrderRow, shop: ShopMail): EmailLink[] {
  const epub = (order.persona_formats ?? '').split(',').includes('epub');
  return [
    { label: 'Download PDF', url: `${shop.publicUrl}${personaDownloadUrl(order.persona_id, 'pdf')}` },
    ...(epub ? [{ label: 'Download EPUB', url: `${shop.publicUrl}${personaDownloadUrl(order.persona_id, 'epub')}` }] : []),
  ];
}

/** A gift's lines in the buyer's e-mails: for whom, and when (and whether) they are e-mailed it. */
function giftFacts(order: OrderRow): Facts {
  if (!order.gift_recipient_name || !order.gift_deliver_on) return [];
  return [
    ['A gift for', order.gift_recipient_name],
    order.gift_recipient_email
      ? ['We e-mail it to', `${order.gift_recipient_email} on ${longDay(order.gift_deliver_on)}`]
      : ['Delivery', 'You hand it over: the download is yours'],
  ];
}

/** A gift's day and whether its recipient is e-mailed, in a sentence for the giver. */
function giftPlan(order: OrderRow): string {
  const name = order.gift_recipient_name!;
  const day = longDay(order.gift_deliver_on!);
  return order.gift_recipient_email
    ? `We e-mail ${name} their Persona at ${order.gift_recipient_email} on ${day}, your gift's day, with your message.`
    : `We do not e-mail ${name}: the download is yours to hand over on ${day}, your gift's day.`;
}

function addressLine(address: unknown): string {
  const a = address as Address | null;
  return a ? addressOneLine(a) : '';
}

/**
 * A printed copy's dates, from its payment's day and a gift's day (delivery-dates): the last day
 * it leaves us and the day it arrives by.
 */
function printedDates(order: OrderRow) {
  return printedDelivery(shopDate(order.paid_at ?? order.created_at ?? new Date()), order.gift_deliver_on);
}

/** A printed copy's arrival promise, in a sentence. */
function printedPromise(order: OrderRow): string {
  const { shipBy, arrivesBy } = printedDates(order);
  return `Your printed copy leaves us by ${longDay(shipBy)} and should arrive by ${longDay(arrivesBy)}; its page shows when it is on its way.`;
}

const personaPage = (order: OrderRow, shop: ShopMail): EmailLink => ({
  label: 'Your Persona page',
  url: `${shop.publicUrl}/send-persona?personaId=${order.persona_id}`,
});

const footer = (shop: ShopMail) => ['Persona Books', `Questions? Write to ${shop.supportEmail}, quoting your Persona ID.`];

function email(order: OrderRow, kind: EmailKind, subject: string, body: EmailBody, correlationId: string | null): DueEmail {
  return { orderId: order.id, kind, to: order.email, subject, text: emailText(body), html: emailHtml(body), correlationId };
}

/** The receipt's lines: what was bought, what each part cost, what was paid and when, and the Persona's ID. */
function receiptFacts(order: OrderRow, shop: ShopMail, invoice?: { number: string }): Facts {
  const physical = order.delivery_type === 'physical';
  return [
    ['Book', `${order.book_title} by ${order.book_author}`],
    ['Format', physical ? 'Printed Persona (with the digital copy)' : 'Digital Persona'],
    ...(physical
      ? ([
          ['Book price', inr(order.base_paise)],
          ['Printing', inr(order.printing_paise)],
          ['Delivery', inr(order.delivery_paise)],
        ] as Facts)
      : order.discount_paise > 0
        ? ([['Book price', inr(order.base_paise)]] as Facts)
        : []),
    // A coupon's discount, so that the parts add up to what was paid.
    ...(order.discount_paise > 0 ? ([[`Discount (${order.coupon_code ?? 'coupon'})`, `−${inr(order.discount_paise)}`]] as Facts) : []),
    ['Amount paid', inr(order.amount_paise)],
    ['Paid on', longDate(order.paid_at ?? new Date())],
    ['Persona ID', order.persona_id],
    ...giftFacts(order),
    ...(physical
      ? ([
          ['Delivering to', addressLine(order.address)],
          ['Arrives by', longDay(printedDates(order).arrivesBy)],
        ] as Facts)
      : []),
    ...(invoice ? ([['Tax invoice', { label: invoice.number, url: `${shop.publicUrl}${orderInvoiceUrl(order.persona_id)}` }]] as Facts) : []),
  ];
}

/**
 * The confirmation, a receipt: due CONFIRMATION_DELAY_MS after payment, so that a Persona ready by
 * then replaces it with one e-mail (personaReadyEmail with `receipt`).
 */
export function orderConfirmedEmail(order: OrderRow, shop: ShopMail, correlationId: string | null, invoice?: { number: string }): DueEmail {
  const gift = isGift(order);
  return {
    ...email(
      order,
      'order-confirmed',
      `Order confirmed: your Persona of "${order.book_title}"`,
      {
        greeting: `Dear ${order.full_name},`,
        heading: 'Thank you for your order',
        paragraphs: [`We have received your payment of ${inr(order.amount_paise)}. This e-mail is your receipt.`],
        facts: receiptFacts(order, shop, invoice),
        actions: [personaPage(order, shop)],
        after: [
          gift
            ? `We are printing ${order.gift_recipient_name}'s name and the date in it and signing it now, and e-mail you again when the Persona is ready to download.`
            : 'We are printing your name and the date in it and signing it now, and e-mail you again when your Persona is ready to download.',
          ...(gift ? [giftPlan(order)] : []),
          ...(order.delivery_type === 'physical' ? [printedPromise(order)] : []),
          'Keep your Persona ID: it finds, downloads and verifies your copy whenever you need it.',
        ],
        footer: footer(shop),
        shopUrl: shop.publicUrl,
      },
      correlationId,
    ),
    sendAfter: new Date((order.paid_at ?? new Date()).getTime() + CONFIRMATION_DELAY_MS),
  };
}

/** What the ready e-mail also says when it is the order's first: the receipt (and its invoice, once issued). */
export interface ReadyReceipt {
  invoice?: { number: string };
}

/**
 * The buyer's e-mail that their Persona is ready, a button per format; `replaces`: the Persona a
 * re-issue's corrected one replaces; `receipt`: the order's confirmation was not sent, so this one
 * confirms the order and the payment too.
 */
export function personaReadyEmail(order: OrderRow, shop: ShopMail, correlationId: string | null, replaces?: string, receipt?: ReadyReceipt): DueEmail {
  const physical = order.delivery_type === 'physical';
  const gift = isGift(order);
  const ready = `Your Persona of "${order.book_title}" by ${order.book_author} is ready.`;
  const paragraphs = replaces
    ? [
        `Your Persona of "${order.book_title}" by ${order.book_author} has been made again with the corrected details.`,
        `It replaces Persona ${replaces}, which can no longer be downloaded. Its new Persona ID is ${order.persona_id}.`,
      ]
    : receipt
      ? [`We have received your payment of ${inr(order.amount_paise)}. This e-mail is your receipt.`, ready]
      : [ready];
  return email(
    order,
    'persona-ready',
    replaces
      ? `Your corrected Persona of "${order.book_title}" is ready`
      : receipt
        ? `Order confirmed: your Persona of "${order.book_title}" is ready`
        : `Your Persona of "${order.book_title}" is ready`,
    {
      greeting: `Dear ${order.full_name},`,
      heading: replaces ? 'Your corrected Persona is ready' : receipt ? 'Thank you: your Persona is ready' : 'Your Persona is ready',
      paragraphs,
      facts: receipt ? receiptFacts(order, shop, receipt.invoice) : [['Persona ID', order.persona_id], ...giftFacts(order)],
      actions: [...downloadActions(order, shop), personaPage(order, shop)],
      after: [
        ...(receipt && gift ? [giftPlan(order)] : []),
        ...(physical ? [printedPromise(order)] : []),
        'Keep your Persona ID: it finds, downloads and verifies your copy whenever you need it.',
      ],
      footer: footer(shop),
      shopUrl: shop.publicUrl,
    },
    correlationId,
  );
}

/**
 * The buyer's (a gift's giver's) e-mail when their Persona could not be made: their payment is
 * safe, the shop knows, and it is made again or refunded in full within
 * PERSONA_REMEDY_BUSINESS_DAYS (the storefront's pages say the same words).
 */
export function personaFailedEmail(order: OrderRow, shop: ShopMail, correlationId: string | null): DueEmail {
  return email(
    order,
    'persona-failed',
    `Your payment is safe: we couldn't make your Persona of "${order.book_title}" yet`,
    {
      greeting: `Dear ${order.full_name},`,
      heading: PERSONA_FAILED_NOTICE.heading,
      paragraphs: [PERSONA_FAILED_NOTICE.message],
      facts: [
        ['Book', `${order.book_title} by ${order.book_author}`],
        ['Persona ID', order.persona_id],
        ['Order', order.id],
        ['Amount paid', inr(order.amount_paise)],
        ['Paid on', longDate(order.paid_at ?? order.created_at)],
        ...giftFacts(order),
      ],
      actions: [personaPage(order, shop)],
      after: [
        PERSONA_FAILED_NOTICE.next,
        ...(order.delivery_type === 'physical' ? ['Your printed copy is printed and dispatched once your Persona is made.'] : []),
      ],
      footer: footer(shop),
      shopUrl: shop.publicUrl,
    },
    correlationId,
  );
}

/** The admin app's orders list (the gateway serves the app under /admin), filtered by `query`. */
const adminOrders = (shop: ShopMail, query: string) => `${shop.publicUrl}/admin/orders?${query}`;

/**
 * The shop's alert to itself (at its own address, SUPPORT_EMAIL) that a paid Persona could not be
 * made: which order, Persona and book, the buyer, why, and the admin's order where Retry is. One
 * per failure: `occasion` is the persona.failed event's id, so a retry that fails again alerts
 * again while a redelivered event does not.
 */
export function personaFailedAlert(order: OrderRow, shop: ShopMail, occasion: string, correlationId: string | null): DueEmail {
  const body: EmailBody = {
    greeting: 'Hello,',
    heading: 'A paid Persona could not be made',
    paragraphs: [
      `${order.full_name} paid ${inr(order.amount_paise)} for a Persona of "${order.book_title}", and it could not be made after its last attempt.`,
      `They have been e-mailed that their payment is safe and that we will make it again or refund them in full within ${PERSONA_REMEDY_BUSINESS_DAYS} business days.`,
    ],
    facts: [
      ['Order', order.id],
      ['Persona ID', order.persona_id],
      ['Book', `${order.book_title} by ${order.book_author}`],
      ['Buyer', order.full_name],
      ["Buyer's e-mail", order.email],
      ['Phone', order.phone],
      ['Format', order.delivery_type === 'physical' ? 'Printed Persona (with the digital copy)' : 'Digital Persona'],
      ['Amount paid', inr(order.amount_paise)],
      ['Paid on', longDate(order.paid_at ?? order.created_at)],
      ['Reason', order.persona_error || 'None given'],
    ],
    actions: [
      { label: 'Open the order to retry', url: adminOrders(shop, `search=${order.persona_id}`) },
      { label: 'Every failed Persona', url: adminOrders(shop, 'persona=failed') },
    ],
    after: [
      "Put the cause right (the book's file, for one), then press Retry: the buyer is e-mailed the moment the Persona is ready. A retry that fails again sends another alert.",
    ],
    footer: ['Persona Books', `An alert the shop sends to its own address, ${shop.supportEmail}.`],
  };
  return {
    orderId: order.id,
    kind: 'persona-failed-alert',
    to: shop.supportEmail,
    subject: `Persona failed: ${order.persona_id} ("${order.book_title}") for ${order.full_name}`,
    text: emailText(body),
    html: emailHtml(body),
    correlationId,
    occasion,
  };
}

/**
 * A gift's Persona to its recipient, on its day: who gives it, their message, the book's cover and
 * their dedication page, a download per format and the Persona's page. A gift for the day it was
 * bought goes as soon as its Persona is ready; one for a later day waits for giftDeliveryTime.
 * Null when the gift names no recipient's address.
 */
export function giftDeliveryEmail(order: OrderRow, shop: ShopMail, correlationId: string | null, pictures: GiftPictures = {}): DueEmail | null {
  if (!order.gift_recipient_name || !order.gift_deliver_on || !order.gift_recipient_email) return null;
  const message = order.gift_message ? order.gift_message.split('\n') : [];
  const images: EmailImage[] = [
    ...(pictures.cover ? [{ url: pictures.cover, alt: `The cover of "${order.book_title}"`, width: 120 }] : []),
    ...(pictures.dedication ? [{ url: pictures.dedication, alt: `Your dedication page, with your name: ${order.gift_recipient_name}`, width: 150 }] : []),
  ];
  const body: EmailBody = {
    greeting: `Dear ${order.gift_recipient_name},`,
    heading: `${order.full_name} has given you a Persona`,
    paragraphs: [
      `${order.full_name} has given you a Persona of "${order.book_title}" by ${order.book_author}: your own copy, with your name on its dedication page, signed.`,
      ...(message.length ? [`${order.full_name} writes:`, ...message.map((line) => `“${line}”`)] : []),
    ],
    images,
    facts: [
      ['Book', `${order.book_title} by ${order.book_author}`],
      ['Persona ID', order.persona_id],
    ],
    actions: [...downloadActions(order, shop), personaPage(order, shop)],
    after: ['Keep your Persona ID: it finds, downloads and verifies your copy whenever you need it.'],
    footer: footer(shop),
    shopUrl: shop.publicUrl,
  };
  return {
    orderId: order.id,
    kind: 'gift-delivery',
    to: order.gift_recipient_email,
    subject: `${order.full_name} has given you a Persona of "${order.book_title}"`,
    text: emailText(body),
    html: emailHtml(body),
    correlationId,
    ...(order.gift_deliver_on > shopDate(order.paid_at ?? order.created_at) ? { sendAfter: giftDeliveryTime(order.gift_deliver_on) } : {}),
  };
}

/** A shipped copy's arrival: the courier's fewest and most business days after the day it left. */
function shippedArrival(order: OrderRow): string {
  const left = shopDate(order.shipped_at ?? new Date());
  return `between ${longDay(addBusinessDays(left, TRANSIT_BUSINESS_DAYS.min))} and ${longDay(addBusinessDays(left, TRANSIT_BUSINESS_DAYS.max))}`;
}

/**
 * The e-mail a printed copy's new delivery status owes its buyer, or null when it owes none. A copy
 * cancelled with the whole order refunded (`refund: 'order'`) says so instead of the fees alone.
 */
export function deliveryEmail(order: OrderRow, shop: ShopMail, correlationId: string | null, refund: 'print' | 'order' = 'print'): DueEmail | null {
  const greeting = `Dear ${order.full_name},`;
  const book = `"${order.book_title}"`;
  const common = { greeting, actions: [personaPage(order, shop)], footer: footer(shop), shopUrl: shop.publicUrl };
  switch (order.delivery_status) {
    case 'shipped':
      return email(
        order,
        'shipped',
        `Your printed Persona of ${book} is on its way`,
        {
          ...common,
          heading: 'Your printed Persona is on its way',
          paragraphs: [`Your printed copy of ${book} has left us and should arrive ${shippedArrival(order)}.`],
          facts: [
            ['Persona ID', order.persona_id],
            ['Carrier', order.carrier ?? 'Our courier'],
            ...(order.tracking_number ? ([['Tracking number', order.tracking_number]] as Facts) : []),
            ['Delivering to', addressLine(order.address)],
          ],
        },
        correlationId,
      );
    case 'delivered':
      return email(
        order,
        'delivered',
        `Your printed Persona of ${book} has been delivered`,
        {
          ...common,
          heading: 'Your printed Persona has been delivered',
          paragraphs: [`Your printed copy of ${book} has been delivered. We hope you enjoy it.`],
          after: ['If it arrived damaged or with a printing fault, reply within 7 days with a photo and we reprint it at our cost.'],
        },
        correlationId,
      );
    case 'cancelled':
      return email(
        order,
        'cancelled',
        `Your printed Persona of ${book} was cancelled`,
        {
          ...common,
          heading: 'Your printed copy was cancelled',
          paragraphs:
            refund === 'order'
              ? [
                  `The printed copy of ${book} in this order was cancelled, and the whole order is refunded: what is left of the ${inr(order.amount_paise)} you paid goes back to the way you paid within 5 to 7 business days.`,
                  'Once the refund is processed, your digital Persona can no longer be downloaded.',
                ]
              : [
                  `The printed copy of ${book} in this order was cancelled. Its printing and delivery fees (${inr(order.printing_paise + order.delivery_paise)}) are refunded to the way you paid within 5 to 7 business days.`,
                  'Your digital Persona stays yours to download.',
                ],
        },
        correlationId,
      );
    default:
      return null;
  }
}

/** A sign-in link to the library of every Persona bought with `email` (it belongs to no order). */
export function libraryLinkEmail(email: string, link: string, shop: ShopMail, correlationId: string | null): DueEmail {
  const body: EmailBody = {
    greeting: 'Hello,',
    heading: 'Your Personas',
    paragraphs: [`Someone, we hope you, asked for the Personas bought with ${email}. This button opens them, with their downloads.`],
    actions: [{ label: 'Open my Personas', url: link }],
    after: [
      `The link works once, within ${LIBRARY_LINK_MINUTES} minutes. If it has expired, ask for a new one on the same page.`,
      'If you did not ask for it, ignore this e-mail: nothing opens without the link.',
    ],
    footer: ['Persona Books', `Questions? Write to ${shop.supportEmail}.`],
    shopUrl: shop.publicUrl,
  };
  return {
    orderId: null,
    kind: 'library-link',
    to: email,
    subject: 'Your sign-in link to your Personas',
    text: emailText(body),
    html: emailHtml(body),
    correlationId,
  };
}

/** A refund processed: how much, to which payment, when it reaches the buyer, and its credit note. */
export function refundProcessedEmail(
  order: OrderRow,
  refund: { id: string; amountPaise: number; speed: 'normal' | 'optimum'; refundedInAllPaise: number },
  shop: ShopMail,
  correlationId: string | null,
  creditNote?: { id: string; number: string },
): DueEmail {
  const full = refund.refundedInAllPaise >= order.amount_paise;
  return {
    ...email(
      order,
      'refund-processed',
      `Refund of ${inr(refund.amountPaise)} for your Persona of "${order.book_title}"`,
      {
        greeting: `Dear ${order.full_name},`,
        heading: 'Your refund is on its way',
        paragraphs: [
          `We have refunded ${inr(refund.amountPaise)} of your payment of ${inr(order.amount_paise)} to the card or account you paid with.`,
          refund.speed === 'optimum'
            ? 'It reaches your account within minutes, or within a few working days if your bank does not take instant refunds.'
            : 'It reaches your account in 5–7 working days, as your bank credits it.',
        ],
        facts: [
          ['Book', `${order.book_title} by ${order.book_author}`],
          ['Persona ID', order.persona_id],
          ['Refunded', inr(refund.amountPaise)],
          ['Refunded in all', inr(refund.refundedInAllPaise)],
          ...(creditNote
            ? ([['Credit note', { label: creditNote.number, url: `${shop.publicUrl}${orderInvoiceUrl(order.persona_id, creditNote.id)}` }]] as Facts)
            : []),
        ],
        after: full ? ['The whole payment is refunded.'] : ['The rest of your order stands: your Persona is yours to download as before.'],
        footer: footer(shop),
        shopUrl: shop.publicUrl,
      },
      correlationId,
    ),
    // One e-mail per refund.
    occasion: refund.id,
  };
}
