// The two ways to have a Persona, priced as the server will charge them (contracts'
// computeOrderAmount), with what each includes: the book page and the checkout show the same.
import {
  computeOrderAmount,
  DELIVERY_FEE_PAISE,
  DISPATCH_BUSINESS_DAYS,
  TRANSIT_BUSINESS_DAYS,
  paiseToRupees,
  rupeesToPaise,
  type Book,
  type DeliveryType,
  type PersonaFormat as PersonaFileFormat,
} from '@persona/contracts';

export interface PersonaFormat {
  type: DeliveryType;
  /** "Digital" / "Physical": the checkout's radio labels (spec §2). */
  label: string;
  /** The book page's name for it. */
  name: string;
  /** Rupees, everything included. */
  total: number;
  /** For a printed copy: the book, printing and delivery that make the total. */
  parts: Array<{ label: string; amount: number }>;
  includes: string[];
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The printed copy is dispatched within this many business days of payment (contracts' delivery dates). */
export const DISPATCH_DAYS = `${DISPATCH_BUSINESS_DAYS} business days`;
/** And the courier takes this long after dispatch (spec §9). */
export const TRANSIT_DAYS = `${TRANSIT_BUSINESS_DAYS.min}–${TRANSIT_BUSINESS_DAYS.max} business days`;

/** The files a Persona of this book comes as: a PDF and an EPUB, or for a book printed from the publisher's own PDF, the PDF only. */
export function personaFiles(book: Pick<Book, 'hasFullPdf'>): string {
  return book.hasFullPdf ? "a PDF in the publisher's own layout (no EPUB for this book)" : 'a PDF and an EPUB for phones and e-readers';
}

/** The files named short, as the book page, checkout and receipt name them: "PDF + EPUB", or "PDF" alone. */
export function personaFileNames(book: Pick<Book, 'hasFullPdf'>): string {
  return book.hasFullPdf ? 'PDF' : 'PDF + EPUB';
}

/**
 * A bought Persona's format with the files that come with it ("Digital Persona (PDF + EPUB)"), from
 * the files the order has ready; before they are, the format alone.
 */
export function personaFormatLabel(deliveryType: DeliveryType, files: readonly PersonaFileFormat[]): string {
  const name = deliveryType === 'physical' ? 'Printed Persona' : 'Digital Persona';
  if (files.length === 0) return name;
  const named = [...new Set(files)]
    .sort((a, b) => FILE_ORDER.indexOf(a) - FILE_ORDER.indexOf(b))
    .map((file) => file.toUpperCase())
    .join(' + ');
  return deliveryType === 'physical' ? `${name} (with the ${named})` : `${name} (${named})`;
}

const FILE_ORDER: readonly PersonaFileFormat[] = ['pdf', 'epub'];

export function personaFormats(book: Pick<Book, 'price' | 'printingCost' | 'hasFullPdf' | 'hasAuthorSignature'>): [PersonaFormat, PersonaFormat] {
  const prices = { pricePaise: rupeesToPaise(book.price), printingCostPaise: rupeesToPaise(book.printingCost ?? 0) };
  const digital = computeOrderAmount(prices, 'digital');
  const physical = computeOrderAmount(prices, 'physical');
  return [
    {
      type: 'digital',
      label: 'Digital',
      name: 'Digital Persona',
      total: paiseToRupees(digital.totalPaise),
      parts: [],
      includes: [
        `${capitalise(personaFiles(book))}, with your name, the date and ${book.hasAuthorSignature ? "the author's own signature" : 'its signature'}, to download at once`,
      ],
    },
    {
      type: 'physical',
      label: 'Physical',
      name: 'Printed Persona',
      total: paiseToRupees(physical.totalPaise),
      parts: [
        { label: 'Book', amount: paiseToRupees(physical.basePaise) },
        { label: 'Printing', amount: paiseToRupees(physical.printingPaise) },
        { label: 'Delivery', amount: paiseToRupees(DELIVERY_FEE_PAISE) },
      ],
      includes: [`A printed copy, dispatched within ${DISPATCH_DAYS} and delivered ${TRANSIT_DAYS} later, and ${personaFiles(book)} at once`],
    },
  ];
}
