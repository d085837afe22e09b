// /api/print-house/webhook (issue 27): the print house's word on its jobs, PRINT_JOB_STATUS_CHANGED
// signed with HMAC-SHA256 of the exact bytes it sent (so the body stays raw). A job of this shop is
// moved (print-jobs.ts: a shipment marks the order shipped with its tracking number); anything else
// is acknowledged and ignored, so the house does not send it again; a bad signature is refused.
import { NoQuery, PrintHouseWebhookEvent, PrintHouseWebhookReceipt, ErrorBody } from '@persona/contracts';
import { HttpError, keepJsonRaw, requestOrigin, type ServiceApp } from '@persona/service-kit';
import { Type } from '@sinclair/typebox';
import type { OrdersDeps } from '../deps';
import { applyPrintJobUpdate } from '../modules/printing/print-jobs';

export default async function printHouseRoutes(app: ServiceApp, deps: OrdersDeps) {
  await app.register(async (scope) => {
    keepJsonRaw(scope, 256 * 1024);
    scope.post(
      '/api/print-house/webhook',
      {
        schema: {
          querystring: NoQuery,
          headers: Type.Object({ 'lulu-hmac-sha256': Type.Optional(Type.String({ maxLength: 200 })) }),
          body: Type.Optional(PrintHouseWebhookEvent),
          response: { 200: PrintHouseWebhookReceipt, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody, 415: ErrorBody },
        },
      },
      async (request) => {
        const raw = request.body as Buffer | undefined;
        const update = raw ? deps.printProvider.readWebhook(raw, request.headers) : null;
        if (update === null) throw new HttpError(401, 'Invalid print house webhook signature', 'INVALID_SIGNATURE');
        if (update === 'not-a-job-update') return { status: 'ignored' as const };
        const applied = await applyPrintJobUpdate(
          { ...requestOrigin(request), uow: deps.uow, shop: deps.mail.shop, db: deps.db, provider: deps.printProvider, logger: request.log },
          update,
        );
        if (applied) deps.mail.nudge();
        return { status: applied ? ('applied' as const) : ('ignored' as const) };
      },
    );
  });
}
