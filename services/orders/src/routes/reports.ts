// /api/orders/reports: the owner's monthly reports (issue 23), administrators only: the GST
// return's tables and the settlement reconciliation as CSV, and the reconciliation's mismatches.
import type { FastifyReply } from 'fastify';
import {
  CsvAnswer,
  DataEnvelope,
  ErrorBody,
  gstReturnCsvFilename,
  parseReportMonth,
  reportMonthLabel,
  ReportMonthQuery,
  SETTLEMENT_MISMATCHES,
  settlementCsvFilename,
  SettlementReport,
} from '@persona/contracts';
import { badRequest, type ServiceApp } from '@persona/service-kit';
import type { OrdersDeps } from '../deps';
import { istMonthRange } from '../modules/invoices/invoice-number';
import { invoicesOfMonth } from '../modules/invoices/invoices.repository';
import { gstReturn, gstReturnCsv } from '../modules/reports/gst-return';
import { settlementCsv, settlementReconciliation } from '../modules/reports/settlement-reconciliation';

/** The month asked for; one that has not begun has nothing to report and is refused. */
function reportMonth(text: string): { year: number; month: number } {
  const month = parseReportMonth(text);
  if (!month) throw badRequest('query field "month" must be a month, YYYY-MM');
  if (istMonthRange(month.year, month.month).from.getTime() > Date.now()) {
    throw badRequest(`${reportMonthLabel(month.year, month.month)} has not begun: there is nothing to report yet`);
  }
  return month;
}

/** Sales and buyers' orders: no cache anywhere may keep them. */
const sendCsv = (reply: FastifyReply, filename: string, csv: string) =>
  reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).header('cache-control', 'no-store').send(csv);

export default async function reportRoutes(app: ServiceApp, deps: OrdersDeps) {
  const { db, adminOnly } = deps;
  const csvSchema = { querystring: ReportMonthQuery, response: { 200: CsvAnswer, 400: ErrorBody, 401: ErrorBody } };

  app.get('/api/orders/reports/gst-return', { onRequest: adminOnly, schema: csvSchema }, async (request, reply) => {
    const { year, month } = reportMonth(request.query.month);
    const documents = await invoicesOfMonth(db, year, month);
    return sendCsv(reply, gstReturnCsvFilename(request.query.month), gstReturnCsv(gstReturn(year, month, documents), deps.invoicing.seller));
  });

  app.get(
    '/api/orders/reports/settlement',
    {
      onRequest: adminOnly,
      schema: { querystring: ReportMonthQuery, response: { 200: DataEnvelope(SettlementReport), 400: ErrorBody, 401: ErrorBody, 503: ErrorBody } },
    },
    async (request, reply) => {
      const { year, month } = reportMonth(request.query.month);
      const report = await settlementReconciliation(deps, year, month);
      reply.header('cache-control', 'no-store');
      return {
        data: {
          month: request.query.month,
          summary: report.summary,
          mismatches: report.lines.filter((line) => SETTLEMENT_MISMATCHES.includes(line.status)),
        },
      };
    },
  );

  app.get(
    '/api/orders/reports/settlement/export',
    { onRequest: adminOnly, schema: { ...csvSchema, response: { ...csvSchema.response, 503: ErrorBody } } },
    async (request, reply) => {
      const { year, month } = reportMonth(request.query.month);
      const report = await settlementReconciliation(deps, year, month);
      return sendCsv(reply, settlementCsvFilename(request.query.month), settlementCsv(report, reportMonthLabel(year, month)));
    },
  );
}
