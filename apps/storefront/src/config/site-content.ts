// The shop's own words that are not catalogue data: testimonials, team, contact details (DESIGN §10).
import { DISPATCH_BUSINESS_DAYS, formatInr, TRANSIT_BUSINESS_DAYS } from '@persona/contracts';
export interface Testimonial {
  quote: string;
  name: string;
  role: string;
}

export interface TeamMember {
  name: string;
  role: string;
  bio: string;
}

export const SITE_NAME = 'Persona Books';

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    quote: 'Opening a book with my own name on the dedication page felt like the author had written it for me. It is the gift I now give everyone.',
    name: 'Ananya R.',
    role: 'Reader, Bengaluru',
  },
  {
    quote: 'I tried the sample, loved the first chapter and had my Persona a few minutes later. The signed certificate is a lovely touch.',
    name: 'Rahul M.',
    role: 'Reader, Pune',
  },
  {
    quote: 'The printed Persona arrived well packed and on time. My daughter keeps showing her name inside the book to her friends.',
    name: 'Meera S.',
    role: 'Parent, Chennai',
  },
];

export const TEAM: readonly TeamMember[] = [
  { name: 'Kavya Iyer', role: 'Founder & Editor', bio: 'Spent a decade in publishing before asking why every copy of a book had to be the same.' },
  { name: 'Arjun Mehta', role: 'Head of Technology', bio: 'Builds the signing and typesetting pipeline that turns a book into your Persona.' },
  { name: 'Sara Thomas', role: 'Author Relations', bio: 'Works with writers so every Persona carries their genuine signature.' },
];

export interface ContactDetails {
  /** Support e-mail, linked with mailto:. */
  email: string;
  /** As people read it; the tel: link is derived from it. */
  phone: string;
  /** The postal address, one line per entry. */
  address: readonly string[];
  /** How soon a message is answered, as the contact pages say it. */
  replyWithin: string;
}

export const CONTACT_DETAILS: ContactDetails = {
  email: 'support@personabooks.in',
  phone: '+91 80 4000 1234',
  address: ['Persona Books', '2nd Floor, 14 Church Street', 'Bengaluru 560001', 'India'],
  replyWithin: 'two working days',
};

export const SHIPPING = {
  /** Flat fee for physical deliveries, in rupees (spec §9). */
  deliveryFeeRupees: 50,
  /** Business days from payment to dispatch, then the courier's days after it (contracts' delivery dates). */
  dispatchBusinessDays: DISPATCH_BUSINESS_DAYS,
  minBusinessDays: TRANSIT_BUSINESS_DAYS.min,
  maxBusinessDays: TRANSIT_BUSINESS_DAYS.max,
} as const;

/** A policy page's words: what a payment provider asks a shop to publish (refunds, privacy, terms, shipping). */
export interface Policy {
  title: string;
  /** One line under the title. */
  lead: string;
  /** The date the text last changed, as YYYY-MM-DD. */
  updated: string;
  sections: ReadonlyArray<{ heading: string; paragraphs: readonly string[] }>;
}

const CONTACT_LINE = `write to ${CONTACT_DETAILS.email} or call ${CONTACT_DETAILS.phone}, quoting your Persona ID`;

export const POLICIES = {
  refunds: {
    title: 'Refund and Cancellation Policy',
    lead: 'When you can cancel an order, and when and how we refund it.',
    updated: '2026-11-25',
    sections: [
      {
        heading: 'Digital Personas',
        paragraphs: [
          'A digital Persona is made for you alone, with your name and the date, the moment your payment is confirmed, so it cannot be cancelled once it is ready to download.',
          'If your Persona cannot be made, or the file you download is damaged or does not open, we make it again or refund the full amount, as you prefer.',
        ],
      },
      {
        heading: 'Printed Personas',
        paragraphs: [
          `You can cancel a printed Persona until it is dispatched (we dispatch within ${SHIPPING.dispatchBusinessDays} business days). The printing and delivery fees are refunded in full; the digital copy you have already received stays yours and its price is kept.`,
          'If your printed copy arrives damaged or with a printing fault, send us a photo within 7 days of delivery and we reprint and resend it at our cost, or refund it.',
        ],
      },
      {
        heading: 'A misspelt name',
        paragraphs: [
          'If the name in your Persona is misspelt, write to us within 7 days of your order with the correct spelling: we make a corrected copy at no cost (for a printed copy, before it is dispatched).',
        ],
      },
      {
        heading: 'How refunds are paid',
        paragraphs: [
          'Refunds go back to the card, UPI account or bank you paid with, through Razorpay, within 5 to 7 business days of our confirming them.',
          `To ask for a cancellation or a refund, ${CONTACT_LINE}. We reply within ${CONTACT_DETAILS.replyWithin}.`,
        ],
      },
    ],
  },
  privacy: {
    title: 'Privacy Policy',
    lead: 'What we collect, why, and what you can ask of us.',
    updated: '2026-11-25',
    sections: [
      {
        heading: 'What we collect',
        paragraphs: [
          'To make and deliver your Persona we keep the name, e-mail address and phone number you give at checkout and, for a printed copy, your delivery address. Your name is printed in your Persona; that is its purpose.',
          'When you write to us or subscribe to our newsletter we keep your name, e-mail address and message.',
          'Payments are handled by Razorpay: we never see or store your card, UPI or bank details.',
        ],
      },
      {
        heading: 'How we use it',
        paragraphs: [
          'Only to make, deliver and support your order, to answer your messages and, if you subscribed, to send the newsletter. We do not sell or rent your details to anyone.',
          'Anyone holding your Persona ID can see your order’s book and progress and download your copy, but never your e-mail, phone or address: keep the ID as you would keep a receipt.',
        ],
      },
      {
        heading: 'Cookies',
        paragraphs: ['The shop sets no tracking or advertising cookies. Your browser keeps your checkout details in the open tab only, until you have paid.'],
      },
      {
        heading: 'Your choices',
        paragraphs: [
          `You can ask for a copy of the details we hold about you, for a correction, or for them to be deleted (we keep what the law requires for accounts and tax): ${CONTACT_LINE}.`,
        ],
      },
    ],
  },
  terms: {
    title: 'Terms of Service',
    lead: 'The agreement between you and Persona Books when you use the shop and buy a Persona.',
    updated: '2026-11-25',
    sections: [
      {
        heading: 'Your Persona',
        paragraphs: [
          'A Persona is a personalised copy of a book for your own reading. The book’s text stays the author’s and publisher’s: you may keep, read and print your copy, but not resell, share or publish it.',
          'Each Persona carries a unique ID and a digital signature: anyone can check at /verify that a copy is genuine and unaltered.',
        ],
      },
      {
        heading: 'Prices and payment',
        paragraphs: [
          `Prices are in Indian rupees and include all taxes. A printed copy adds its printing fee and a flat delivery fee of ${formatInr(SHIPPING.deliveryFeeRupees)}. The amount you pay is the one shown on the checkout button; payment is taken by Razorpay.`,
        ],
      },
      {
        heading: 'Delivery, cancellation and refunds',
        paragraphs: [
          'Digital Personas are ready to download within minutes of payment; printed Personas are delivered as our Shipping Policy says. Cancellations and refunds follow our Refund and Cancellation Policy.',
        ],
      },
      {
        heading: 'Contact',
        paragraphs: [`Persona Books, ${CONTACT_DETAILS.address.slice(1).join(', ')}. For any question about these terms, ${CONTACT_LINE}.`],
      },
    ],
  },
} as const satisfies Record<string, Policy>;

export type PolicyKey = keyof typeof POLICIES;

/**
 * What the reader's ad slot shows (spec §9: a page after every third page of the sample). Until
 * the shop has an ad network it shows the spec's test text; with one, name its unit here
 * (`{ kind: 'adsense', client: 'ca-pub-…', slot: '…' }`) and set the gateway's CSP_AD_ORIGINS to
 * the network's origins so the pages may load it.
 */
export type ReaderAdSlot = { kind: 'text'; text: string } | { kind: 'adsense'; client: string; slot: string };

export const READER_AD_SLOT: ReaderAdSlot = { kind: 'text', text: 'This is a test Ad. Replace with real AdSense code after approval.' };

/** The script an AdSense unit needs (loaded once, only when READER_AD_SLOT names one). */
export const ADSENSE_SCRIPT = 'https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js';

/** True when the slot is one the reader can show: text, or an AdSense unit with a publisher id and a slot id. */
export function isValidAdSlot(slot: ReaderAdSlot): boolean {
  return slot.kind === 'text' ? slot.text.trim().length > 0 : /^ca-pub-\d{10,20}$/.test(slot.client) && /^\d{5,20}$/.test(slot.slot);
}
