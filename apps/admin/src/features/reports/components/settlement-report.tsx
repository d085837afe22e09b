// The month's settlement reconciliation as the Reports page shows it: the summary, then each
// mismatch with its order, both amounts and why it is listed.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { paiseAsRupees, SETTLEMENT_STATUS_WORDS, type SettlementReport } from '@persona/contracts';
import { DataTable } from '../../../components/list-view';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/format';

const rupees = (paise: number | null) => (paise === null ? '—' : `₹${paiseAsRupees(paise)}`);

export function SettlementReportView({ report, label }: { report: SettlementReport; label: string }) {
  const { summary } = report;
  return (
    <>
      <dl className="detail-list">
        <Row term="Payments">
          {summary.payments} · {rupees(summary.paymentsPaise)}
        </Row>
        <Row term="Refunds">
          {summary.refunds} · {rupees(summary.refundsPaise)}
        </Row>
        <Row term="Matched">{summary.matched}</Row>
        <Row term="Awaiting settlement">{summary.awaitingSettlement}</Row>
        <Row term="Razorpay's fees settled in the month">
          {rupees(summary.settledFeePaise)} (GST {rupees(summary.settledFeeTaxPaise)})
        </Row>
        <Row term="Net settled to the bank in the month">{rupees(summary.settledNetPaise)}</Row>
      </dl>
      <h3 className="section-title">Mismatches ({summary.mismatches})</h3>
      {report.mismatches.length === 0 ? (
        <p className="empty-text">No mismatches: every payment and refund of {label} is settled as recorded, or awaiting settlement.</p>
      ) : (
        <DataTable caption={`Mismatches, ${label}`} columns={['Status', 'Type', 'Razorpay ID', 'Order', 'Date', 'Ours', 'Razorpay', 'Why']}>
          {report.mismatches.map((line) => (
            <tr key={`${line.type}:${line.providerId ?? line.orderId}`}>
              <td>
                <span className="badge badge--danger">{SETTLEMENT_STATUS_WORDS[line.status]}</span>
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
