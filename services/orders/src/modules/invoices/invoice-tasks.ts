// What the orders service's worker thread does: draw an invoice's PDF. pdf-lib takes 50–100 ms of
// CPU for one; on the service's event loop, 500 paid orders' invoices held every request behind
// them for half a minute (the `webhooks` bench, 2026-11-27). DESIGN §8: no PDF work on an HTTP
// event loop. Loaded by the pool of `@persona/untrusted` (capped heap, time limit).
import { renderInvoicePdf } from './invoice-pdf';

export const tasks = {
  renderInvoice: renderInvoicePdf,
};

export type InvoiceTasks = typeof tasks;
