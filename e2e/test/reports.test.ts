// The owner's monthly reports in real Chromium (embedded shop, test-mode Razorpay): after a paid
// order and a partial refund, the owner opens Reports from the menu, downloads the month's GST
// return and settlement reconciliation, and finds the order's invoice, credit note, payment and
// refund in them; the page lists the reconciliation's summary and mismatches.
import { randomUUID } from 'node:crypto';
import { downloadedBytes } from './support/browser';
import type { OrderDetail } from '@persona/contracts';
import { adminAuth, buyPersonaThroughApi, fetchAllBooks, postJson } from './support/shop';
import { browserJourney, signInAsAdmin, startOwnShop } from './support/journey';

let auth: { authorization: string };

const journey = browserJourney({
  start: () => startOwnShop('persona-reports-'),
  books: false,
  contextOptions: { acceptDownloads: true },
  prepare: async (shop) => {
    auth = await adminAuth(shop.url);
  },
  // Logged in as the login page would leave it (the token in local storage).
  onContext: (context) => signInAsAdmin(context, auth.authorization.replace(/^Bearer /, '')),
});

/** The order as its page reads it, once `ready` says it is. */
async function orderWhen(orderId: string, ready: (detail: OrderDetail) => boolean): Promise<OrderDetail> {
  for (let i = 0; i < 150; i += 1) {
    const res = await fetch(`${journey.shop.url}/api/orders/${orderId}/detail`, { headers: auth });
    const detail = ((await res.json()) as { data: OrderDetail }).data;
    if (ready(detail)) return detail;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`order ${orderId} never got there`);
}

async function downloaded(button: string): Promise<{ name: string; text: string }> {
  const downloading = journey.page.waitForEvent('download');
  await journey.page.getByRole('button', { name: button }).click();
  const download = await downloading;
  return { name: download.suggestedFilename(), text: (await downloadedBytes(download)).toString('utf8') };
}

describe('the Reports page', () => {
  it("downloads the month's GST return and settlement reconciliation, holding a paid and partly refunded order", async () => {
    const [book] = await fetchAllBooks(journey.shop.url);
    const sold = await buyPersonaThroughApi(journey.shop.url, {
      bookId: book!._id,
      fullName: 'Anaswara Raveendran',
      email: 'anaswara@example.com',
      deliveryType: 'digital',
    });
    await orderWhen(sold.orderId, (d) => d.invoices.some((i) => i.kind === 'invoice'));
    await postJson(journey.shop.url, `/api/orders/${sold.orderId}/refunds`, { refundId: randomUUID(), amountPaise: 10_000, reason: 'Reports journey' }, auth);
    const detail = await orderWhen(sold.orderId, (d) => d.refunds[0]?.status === 'processed' && d.invoices.some((i) => i.kind === 'credit-note'));
    const invoice = detail.invoices.find((i) => i.kind === 'invoice')!;
    const creditNote = detail.invoices.find((i) => i.kind === 'credit-note')!;
    const month = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 7);

    await journey.page.goto('/admin');
    await journey.page.getByRole('navigation', { name: 'Admin menu' }).getByRole('link', { name: 'Reports' }).click();
    await journey.page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
    expect(await journey.page.getByLabel('Month').inputValue()).toBe(month);

    // The GST return: the invoice and the credit note among the documents issued, the e-book's tax by state and rate, its SAC.
    const gst = await downloaded('Download GST return');
    expect(gst.name).toBe(`gstr1-${month}.csv`);
    expect(gst.text).toMatch(/^GSTR-1,/);
    expect(gst.text).toMatch(new RegExp(`\\r\\nInvoices for outward supply,[^,]+,${invoice.number.replace(/\//g, '\\/')},1,0,1\\r\\n`));
    expect(gst.text).toContain(`\r\nCredit Note,${creditNote.number},${creditNote.number},1,0,1\r\n`);
    expect(gst.text).toMatch(/\r\nOE,29-Karnataka,Intra State,5,[0-9]+\.[0-9]{2},0\.00,[0-9]+\.[0-9]{2},[0-9]+\.[0-9]{2},0\.00\r\n/);
    expect(gst.text).toMatch(/\r\n9984,E-books,NA,1,/);

    // The settlement reconciliation: the payment and the refund, each awaiting Razorpay's settlement (two days after).
    const recon = await downloaded('Download reconciliation');
    expect(recon.name).toBe(`settlement-reconciliation-${month}.csv`);
    const paid = (invoice.totalPaise / 100).toFixed(2);
    expect(recon.text).toContain(`\r\nAwaiting settlement,payment,${detail.payment.razorpayPaymentId},${sold.orderId},${sold.personaId},`);
    expect(recon.text).toContain(`,${paid},,,,,,,Not settled yet`);
    expect(recon.text).toContain(`\r\nAwaiting settlement,refund,${detail.refunds[0]!.razorpayRefundId},${sold.orderId},${sold.personaId},`);
    expect(recon.text).toContain('\r\nMISMATCHES\r\n');

    // The page: the month's summary, and no mismatch to look into.
    const settlement = journey.page.getByRole('region', { name: /^Settlement reconciliation/ });
    await settlement.getByText('Awaiting settlement', { exact: true }).waitFor();
    expect(await settlement.innerText()).toMatch(/Payments\s*1 · ₹[0-9]+\.[0-9]{2}[\s\S]*Refunds\s*1 · ₹100\.00[\s\S]*Awaiting settlement\s*2/);
    await settlement.getByRole('heading', { name: 'Mismatches (0)' }).waitFor();
    await settlement.getByText(/^No mismatches/).waitFor();
  });
});
