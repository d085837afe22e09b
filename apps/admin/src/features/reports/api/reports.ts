// The owner's monthly reports (issue 23): the GST return and the settlement reconciliation as
// CSV files made by the server, and the reconciliation's mismatches for the page.
import type { Envelope, SettlementReport } from '@persona/contracts';
import { api, apiDownload } from '@persona/web-kit/api-client';

export function downloadGstReturn(month: string) {
  return apiDownload('/orders/reports/gst-return', { query: { month } });
}

export function downloadSettlementReconciliation(month: string) {
  return apiDownload('/orders/reports/settlement/export', { query: { month } });
}

export async function getSettlementReport(month: string, signal?: AbortSignal): Promise<SettlementReport> {
  return (await api.get<Envelope<SettlementReport>>('/orders/reports/settlement', { month }, signal)).data;
}
