// How a printed Persona gets printed and shipped (issue 27), behind one interface: the shop's own
// printer and courier (today's flow: the dispatch list links the print files, an administrator marks
// the order shipped), or a print-on-demand house that takes a print job (the print files' addresses,
// a product, a shipping level, the reader's address) and says by signed webhooks how it goes.
// PRINT_PROVIDER chooses; the use cases (print-jobs.ts) never read a house's JSON.

import { OWN_COURIER } from '../order-records/print-jobs.repository';

/** A printed copy to be made: the order, the book, its print files' addresses, whom it goes to. */
export interface PrintJobRequest {
  orderId: string;
  personaId: string;
  title: string;
  interiorUrl: string;
  coverUrl: string;
  shipTo: {
    name: string;
    phone: string;
    line1: string;
    line2?: string;
    city: string;
    /** The GST state code ("29"), as the checkout took it. */
    state?: string;
    zip: string;
    /** ISO 3166-1 alpha-2: the shop ships within India. */
    country: 'IN';
  };
}

/** What a house's webhook says about a job, in our terms. */
export interface PrintJobUpdate {
  /** The house's id of the job, and ours (the order) as we gave it. */
  jobId: string;
  orderId: string | null;
  status: 'submitted' | 'in_production' | 'shipped' | 'rejected' | 'cancelled';
  /** The house's own word for it ("PRODUCTION_DELAYED"), and why, for a rejection. */
  detail: string;
  carrier?: string;
  trackingNumber?: string;
}

export interface PrintProvider {
  /** "own-courier", "print-house": kept with each job. */
  readonly name: string;
  /**
   * Hands the job over: the house's job id, or null when the shop prints it itself (the dispatch
   * list). Throws when the house refuses or cannot be reached: the job is tried again later.
   */
  submit(job: PrintJobRequest): Promise<{ jobId: string | null }>;
  /** A webhook's update, or null when its signature does not hold (or the provider has none). */
  readWebhook(raw: Buffer, headers: Record<string, string | string[] | undefined>): PrintJobUpdate | 'not-a-job-update' | null;
}

/**
 * Today's flow as a driver: the shop prints the files from the dispatch list and ships with its own
 * courier; an administrator marks the order shipped. Nothing is sent anywhere, and no webhook comes.
 */
export const ownCourier: PrintProvider = {
  name: OWN_COURIER,
  submit: async () => ({ jobId: null }),
  readWebhook: () => null,
};
