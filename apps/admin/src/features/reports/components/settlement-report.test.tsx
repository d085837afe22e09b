// The settlement reconciliation as the Reports page shows it, rendered as the browser would get it:
// the month's figures, each mismatch with its order's link and both amounts, and a month with none.
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import type { SettlementReport } from '@persona/contracts';
import { SettlementReportView } from './settlement-report';

const summary: SettlementReport['summary'] = {
  payments: 3,
  paymentsPaise: 104_850,
  refunds: 1,
  refundsPaise: 10_000,
  matched: 1,
  awaitingSettlement: 0,
  mismatches: 2,
  settledFeePaise: 825,
  settledFeeTaxPaise: 126,
  settledNetPaise: 24_125,
};
const line = {
  providerAmountPaise: null,
  feePaise: null,
  feeTaxPaise: null,
  settledPaise: null,
  settlementId: null,
  settledAt: null,
};
const view = (report: SettlementReport) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <SettlementReportView report={report} label="November 2026" />
    </MemoryRouter>,
  );

describe('the settlement reconciliation on the Reports page', () => {
  it('lists each mismatch: what kind, its order (a link to its page), both amounts and why', () => {
    const html = view({
      month: '2026-11',
      summary,
      mismatches: [
        {
          ...line,
          status: 'missing-at-provider',
          type: 'payment',
          providerId: 'pay_Missing0000001',
          orderId: '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c',
          personaId: 'PRS-7K3M-9QXD-2HFA-J8TW',
          at: '2026-11-10T10:00:00.000Z',
          ourAmountPaise: 34_950,
          note: 'Razorpay has settled no payment pay_Missing0000001',
        },
        {
          ...line,
          status: 'unknown-to-us',
          type: 'payment',
          providerId: 'pay_Unknown0000001',
          orderId: null,
          personaId: null,
          at: null,
          ourAmountPaise: null,
          providerAmountPaise: 34_950,
          settledAt: '2026-11-12T10:00:00.000Z',
          note: "Razorpay settled a payment that is no order's payment or refund of ours",
        },
      ],
    });
    expect(html).toContain('<dt>Payments</dt><dd>3 · ₹1048.50</dd>');
    expect(html).toContain('<dd>₹8.25 (GST ₹1.26)</dd>');
    expect(html).toContain('<dt>Net settled to the bank in the month</dt><dd>₹241.25</dd>');
    expect(html).toContain('Mismatches (2)');
    const rows = html.split('<tr>').slice(2);
    expect(rows[0]).toContain('Missing at Razorpay');
    expect(rows[0]).toMatch(/<a href="\/orders\/6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c"[^>]*>PRS-7K3M-9QXD-2HFA-J8TW<\/a>/);
    expect(rows[0]).toMatch(/<td>10 Nov 2026<\/td><td>₹349\.50<\/td><td>—<\/td>/);
    expect(rows[1]).toContain('Unknown to us');
    expect(rows[1]).toMatch(/<td>—<\/td><td>12 Nov 2026<\/td><td>—<\/td><td>₹349\.50<\/td>/);
  });

  it('says when the month has no mismatch', () => {
    const html = view({ month: '2026-11', summary: { ...summary, mismatches: 0 }, mismatches: [] });
    expect(html).toContain('Mismatches (0)');
    expect(html).toContain('No mismatches: every payment and refund of November 2026 is settled as recorded, or awaiting settlement.');
    expect(html).not.toContain('<table');
  });
});
