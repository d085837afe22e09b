// Reports (issue 23): the owner picks a month and downloads the GST return's tables and the
// settlement reconciliation, both as CSV made by the server; the reconciliation's summary and its
// mismatches are shown here too, so a missing or unknown payment is seen without a spreadsheet.
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { gstReturnCsvFilename, parseReportMonth, reportMonthLabel, settlementCsvFilename, shopDate } from '@persona/contracts';
import { errorMessage } from '@persona/web-kit/api-client';
import { useAsync } from '@persona/web-kit/use-async';
import { useToast } from '@persona/web-kit/toast';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { PageLoading } from '../../../components/page-loading';
import { saveFile } from '../../../lib/download';
import { usePageTitle } from '../../../lib/use-page-title';
import { downloadGstReturn, downloadSettlementReconciliation, getSettlementReport } from '../api/reports';
import { SettlementReportView } from './settlement-report';

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
        {report.status === 'success' && <SettlementReportView report={report.data} label={label} />}
      </section>
    </>
  );
}
