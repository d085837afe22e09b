// Reports (issue 23): the owner picks a month and downloads the GST return's tables and the
// settlement reconciliation, both as CSV made by the server; the reconciliation's summary and its
// mismatches are shown here too, so a missing or unknown payment is seen without a spreadsheet.
import { useId, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  gstReturnCsvFilename,
  paiseAsRupees,
  parseReportMonth,
  reportMonthLabel,
  settlementCsvFilename,
  shopDate,
  type SettlementLine,
} from '@persona/contracts';
import { errorMessage } from '@persona/web-kit/api-client';
import { useAsync } from '@persona/web-kit/use-async';
import { useToast } from '@persona/web-kit/toast';
import { DataTable } from '../../../components/list-view';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageLoading } from '../../../components/page-loading';
import { paths } from '../../../config/paths';
import { saveFile } from '../../../lib/download';
import { formatDate } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { downloadGstReturn, downloadSettlementReconciliation, getSettlementReport } from '../api/reports';

const STATUS_WORDS: Record<SettlementLine['status'], string> = {
  matched: 'Matched',
  'awaiting-settlement': 'Awaiting settlement',
  'amount-mismatch': 'Amount mismatch',
  'missing-at-provider': 'Missing at Razorpay',
  'unknown-to-us': 'Unknown to us',
  adjustment: 'Adjustment',
};

const rupees = (paise: number | null) => (paise === null ? '—' : `₹${paiseAsRupees(paise)}`);

export function ReportsPage() {
  usePageTitle('Reports');
  const [params, setParams] = useSearchParams();
  // The shop's month (India's calendar); a month in the link that is not one, or has not begun, gives this month.
  const current = shopDate(new Date()).slice(0, 7);
  const asked = params.get('month') ?? '';
  const month = parseReportMonth(asked) && asked <= current ? asked : current;
  const { year, month: monthNumber } = parseReportMonth(month)!;
  const label = reportMonthLabel(year, monthNumber);
  const monthId = useId();
  const { toast } = useToast();
  const [downloading, setDownloading] = useState<'gst' | 'settlement' | null>(null);
  const report = useAsync(`settlement:${month}`, (signal) => getSettlementReport(month, signal));

  async function download(which: 'gst' | 'settlement') {
    if (downloading) return;
    setDownloading(which);
    try {
      const { blob, filename } = which === 'gst' ? await downloadGstReturn(month) : await downloadSettlementReconciliation(month);
      saveFile(blob, filename ?? (which === 'gst' ? gstReturnCsvFilename(month) : settlementCsvFilename(month)));
    } catch (error) {
      toast({ title: 'Download failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setDownloading(null);
    }
  }

  return (
    <>
      <PageHeader title="Reports" />
      <div className="filters">
        <div className="field field--inline">
          <label htmlFor={monthId}>Month</label>
          <input
            id={monthId}
            type="month"
            value={month}
            max={current}
            required
            onChange={(e) => {
              if (parseReportMonth(e.target.value)) setParams({ month: e.target.value }, { replace: true });
            }}
          />
        </div>
      </div>

      <section className="panel" aria-labelledby="reports-gst">
        <h2 className="section-title" id="reports-gst">
          GST return, {label}
        </h2>
        <p>
          A CSV file of the invoices and credit notes issued in {label}, as the GSTR-1 tables name them: B2C supplies by state and rate (B2CS), exempt supplies
          (EXEMP), the HSN summary (HSN) and the documents issued (DOCS). Credit notes count in the month they were issued.
        </p>
        <button type="button" className="btn btn--primary btn--sm" onClick={() => download('gst')} disabled={downloading !== null}>
          {downloading === 'gst' ? 'Downloading...' : 'Download GST return'}
        </button>
      </section>

      <section className="panel" aria-labelledby="reports-settlement">
        <h2 className="section-title" id="reports-settlement">
          Settlement reconciliation, {label}
        </h2>
        <p>
          A CSV file of the orders paid and the refunds made in {label}, each matched with what Razorpay settled to the bank account, with its fee. Razorpay
          settles a few days after a payment: the last days of a month settle in the next.
        </p>
        <button type="button" className="btn btn--primary btn--sm" onClick={() => download('settlement')} disabled={downloading !== null}>
          {downloading === 'settlement' ? 'Downloading...' : 'Download reconciliation'}
        </button>
        {report.status === 'loading' && <PageLoading text="Reading Razorpay's settlements..." />}
        {report.status === 'error' && <LoadError what="The settlement reconciliation" error={report.error} onRetry={report.reload} />}
        {report.status === 'success' && (
          <>
            <dl className="detail-list">
              <Row term="Payments">
                {report.data.summary.payments} · {rupees(report.data.summary.paymentsPaise)}
              </Row>
              <Row term="Refunds">
                {report.data.summary.refunds} · {rupees(report.data.summary.refundsPaise)}
              </Row>
              <Row term="Matched">{report.data.summary.matched}</Row>
              <Row term="Awaiting settlement">{report.data.summary.awaitingSettlement}</Row>
              <Row term="Razorpay's fees settled in the month">
                {rupees(report.data.summary.settledFeePaise)} (GST {rupees(report.data.summary.settledFeeTaxPaise)})
              </Row>
              <Row term="Net settled to the bank in the month">{rupees(report.data.summary.settledNetPaise)}</Row>
            </dl>
            <h3 className="section-title" id="reports-mismatches">
              Mismatches ({report.data.summary.mismatches})
            </h3>
            {report.data.mismatches.length === 0 ? (
              <p className="empty-text">No mismatches: every payment and refund of {label} is settled as recorded, or awaiting settlement.</p>
            ) : (
              <DataTable caption={`Mismatches, ${label}`} columns={['Status', 'Type', 'Razorpay ID', 'Order', 'Date', 'Ours', 'Razorpay', 'Why']}>
                {report.data.mismatches.map((line) => (
                  <tr key={`${line.type}:${line.providerId ?? line.orderId}`}>
                    <td>
                      <span className="badge badge--danger">{STATUS_WORDS[line.status]}</span>
                    </td>
                    <td>{line.type}</td>
                    <td className="mono">{line.providerId ?? '—'}</td>
                    <td>{line.orderId ? <Link to={paths.order(line.orderId)}>{line.personaId ?? line.orderId}</Link> : '—'}</td>
                    <td>{formatDate(line.at ?? line.settledAt)}</td>
                    <td>{rupees(line.ourAmountPaise)}</td>
                    <td>{rupees(line.providerAmountPaise)}</td>
                    <td>{line.note}</td>
                  </tr>
                ))}
              </DataTable>
            )}
          </>
        )}
      </section>
    </>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
