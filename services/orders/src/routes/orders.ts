// /api/orders: the public lookup by persona id (rate limited, only what
// /send-persona shows), and the administrator's list and delivery status.
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  AddOrderNoteBody,
  CancelPrintBody,
  CsvAnswer,
  FileAnswer,
  formatInr,
  DataEnvelope,
  DEFAULT_PAGE_SIZE,
  ErrorBody,
  IdParams,
  ListEnvelope,
  NoBody,
  NoQuery,
  normalizePersonaId,
  Order,
  OrderDetail,
  OrderEmail,
  OrderExportQuery,
  OrderNote,
  OrderRefund,
  OrderQuery,
  OrderSummary,
  ORDERS_CSV_FILENAME,
  DISPATCH_CSV_FILENAME,
  PersonaReissue,
  PublicOrder,
  ReissuePersonaBody,
  RefundOrderBody,
  ResendOrderEmailBody,
  UpdateDeliveryStatusBody,
} from '@persona/contracts';
import { decodeCursor, pageMeta } from '@persona/db';
import { badRequest, checkDateRange, clientAddress, notFound, readCursors, requestOrigin, unauthorized, type ServiceApp } from '@persona/service-kit';
import type { OrdersDeps } from '../deps';
import { summaryFirstDay, toOrder, toOrderSummary, toPublicOrder } from '../modules/order-records/orders.mapper';
import * as repo from '../modules/order-records/orders.repository';
import { listKeys, listOrders } from '../modules/orders/order-list.repository';
import { salesByDay, workCounts } from '../modules/order-records/dashboard-figures.repository';
import { changeDeliveryStatus, retryPersona } from '../modules/orders/orders.service';
import { addOrderNote, orderDetail, resendOrderEmail } from '../modules/orders/order-page';
import { requestRefund, toOrderRefund } from '../modules/refunds/refunds';
import { reissuePersona } from '../modules/orders/reissue-persona';
import { cancelPrint } from '../modules/orders/cancel-print';
import { findInvoicesOfOrder } from '../modules/invoices/invoices.repository';
import { invoicePdf } from '../modules/invoices/order-invoice';
import { exportDispatchCsv, exportOrdersCsv } from '../modules/orders/export-orders-csv';

const csvAnswers = { 200: CsvAnswer, 400: ErrorBody, 401: ErrorBody };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function orderRoutes(app: ServiceApp, deps: OrdersDeps) {
  const { db, adminOnly } = deps;
  /**
   * Whose lookup: an administrator (by either id) or the holder of a Persona ID (that id only; an
   * order id needs an admin token). Authentication before validation: a bad token is a 401
   * whatever the id looks like.
   */
  const byOrderOrPersonaId = async (request: FastifyRequest) => {
    const byOrderId = UUID.test((request.params as { id?: string }).id ?? '');
    if (request.headers.authorization) {
      try {
        request.admin = await deps.verifier(request.headers.authorization);
      } catch (error) {
        // The storefront sends a stored admin token with every call (spec §6): an expired one
        // must not break a buyer's public lookup by persona id. By order id it is refused.
        if (byOrderId) throw error;
      }
    } else if (byOrderId) {
      // An order id (never a persona id) is only ever looked up by an administrator.
      throw unauthorized(
        'Authentication required: only an administrator can look an order up by its order id; send an admin token as "Authorization: Bearer <token>"',
      );
    }
  };
  /** The order an id names for this request: an administrator's by either id, anyone else's by Persona ID. */
  const lookedUp = async (request: FastifyRequest, id: string) => {
    if (request.admin) {
      const personaId = normalizePersonaId(id);
      const row = UUID.test(id) ? await repo.findOrderById(db, id) : personaId ? await repo.findOrderByPersonaId(db, personaId) : undefined;
      if (!row) throw notFound('Order not found');
      return row;
    }
    const personaId = normalizePersonaId(id);
    if (!personaId) throw badRequest('That is not a valid Persona ID');
    const row = await repo.findOrderByPersonaId(db, personaId);
    if (!row) throw notFound('No Persona has this ID');
    return row;
  };

  app.get(
    '/api/orders/:id',
    {
      // Per client (the address the gateway forwards), so one guesser cannot use up every buyer's lookups.
      config: { rateLimit: { ...deps.lookupRateLimit, keyGenerator: clientAddress } },
      onRequest: (request) => byOrderOrPersonaId(request),
      schema: {
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 60 }) }),
        querystring: NoQuery,
        response: { 200: DataEnvelope(Type.Union([Order, PublicOrder])), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
      },
    },
    async (request) => {
      const row = await lookedUp(request, request.params.id);
      // An administrator sees all of it; a Persona ID's holder what /send-persona shows.
      return { data: request.admin ? toOrder(row) : toPublicOrder(row) };
    },
  );

  // The order's tax invoice (issue 23), as a PDF: its buyer's by Persona ID (the e-mail's link,
  // the success page, the library), an administrator's by either id.
  app.get(
    '/api/orders/:id/invoice',
    {
      config: { rateLimit: { ...deps.lookupRateLimit, keyGenerator: clientAddress } },
      onRequest: (request) => byOrderOrPersonaId(request),
      schema: {
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 60 }) }),
        /** A credit note's id (the refund e-mail's link); absent: the invoice. */
        querystring: Type.Object({ document: Type.Optional(Type.String({ format: 'uuid' })) }, { additionalProperties: false }),
        response: {
          200: FileAnswer('The tax invoice (or the credit note asked for) as a PDF', ['application/pdf']),
          400: ErrorBody,
          401: ErrorBody,
          404: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const row = await lookedUp(request, request.params.id);
      const documents = await findInvoicesOfOrder(db, row.id);
      const wanted = request.query.document;
      if (wanted && !documents.some((d) => d.id === wanted)) throw notFound('This order has no such document');
      const [invoice] = documents.filter((d) => (wanted ? d.id === wanted : d.kind === 'invoice'));
      if (!invoice) {
        throw notFound(
          row.payment_status === 'paid' ? 'The tax invoice is being prepared: try again in a minute' : 'An order has a tax invoice once it is paid',
        );
      }
      const pdf = await invoicePdf(db, invoice, deps.invoicing.draw);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${invoice.number.replace(/\//g, '-')}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(pdf));
    },
  );

  app.get(
    '/api/orders',
    { onRequest: adminOnly, schema: { querystring: OrderQuery, response: { 200: ListEnvelope(Order), 400: ErrorBody, 401: ErrorBody } } },
    async (request) => {
      const { page = 1, limit = DEFAULT_PAGE_SIZE, after: _after, before: _before, ...filter } = request.query;
      checkDateRange(filter);
      const cursors = readCursors(request.query, (text) => decodeCursor(text, listKeys(filter)));
      // On the read replica once it has every commit made before this request (the admin's own changes included).
      const result = await deps.reads.readLatest((reader) => listOrders(reader, { filter, limit, page, ...cursors, countCap: deps.countCap }));
      return { data: result.rows.map(toOrder), meta: pageMeta(result, { page, limit }) };
    },
  );

  app.get(
    '/api/orders/summary',
    { onRequest: adminOnly, schema: { querystring: NoQuery, response: { 200: DataEnvelope(OrderSummary), 401: ErrorBody } } },
    async (request, reply) => {
      const now = new Date();
      const [days, work] = await Promise.all([salesByDay(db, summaryFirstDay(now)), workCounts(db)]);
      // Sales figures: no shared cache may keep them.
      reply.header('cache-control', 'no-store');
      return { data: { ...toOrderSummary(now, days, work), livePaymentsRefused: deps.livePaymentsRefused } };
    },
  );

  /** A CSV of buyers' names (and for the dispatch list their phones and addresses), streamed: no cache anywhere may keep it. */
  const sendCsv = (reply: FastifyReply, filename: string, lines: AsyncIterable<string>) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(lines));

  app.get('/api/orders/export', { onRequest: adminOnly, schema: { querystring: OrderExportQuery, response: csvAnswers } }, async (request, reply) => {
    checkDateRange(request.query);
    return sendCsv(reply, ORDERS_CSV_FILENAME, exportOrdersCsv(db, request.query, deps.exportBatchSize));
  });

  app.patch(
    '/api/orders/:id/status',
    {
      onRequest: adminOnly,
      schema: {
        params: IdParams,
        querystring: NoQuery,
        body: UpdateDeliveryStatusBody,
        response: { 200: DataEnvelope(Order), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const data = await changeDeliveryStatus({ uow: deps.uow, shop: deps.mail.shop, ...requestOrigin(request) }, request.params.id, request.body);
      deps.mail.nudge();
      return { data, message: 'Delivery status updated' };
    },
  );

  app.get('/api/orders/dispatch-list', { onRequest: adminOnly, schema: { querystring: OrderExportQuery, response: csvAnswers } }, async (request, reply) => {
    checkDateRange(request.query);
    return sendCsv(reply, DISPATCH_CSV_FILENAME, exportDispatchCsv(db, request.query, deps.exportBatchSize, deps.printFileLinks));
  });

  app.post(
    '/api/orders/:id/persona/retry',
    {
      onRequest: adminOnly,
      schema: {
        params: IdParams,
        querystring: NoQuery,
        body: NoBody,
        response: { 200: DataEnvelope(Order), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => ({
      data: await retryPersona({ uow: deps.uow, ...requestOrigin(request) }, request.params.id),
      message: 'The Persona is being made again',
    }),
  );

  // The order page (issue 23): the whole order, and its notes and e-mail copies.
  app.get(
    '/api/orders/:id/detail',
    {
      onRequest: adminOnly,
      schema: { params: IdParams, querystring: NoQuery, response: { 200: DataEnvelope(OrderDetail), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody } },
    },
    async (request, reply) => {
      // A buyer's address and payments: no shared cache may keep them.
      reply.header('cache-control', 'no-store');
      return { data: await orderDetail(db, request.params.id) };
    },
  );

  app.post(
    '/api/orders/:id/notes',
    {
      onRequest: adminOnly,
      schema: {
        params: IdParams,
        querystring: NoQuery,
        body: AddOrderNoteBody,
        response: { 200: DataEnvelope(OrderNote), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => ({ data: await addOrderNote({ uow: deps.uow, ...requestOrigin(request) }, request.params.id, request.body), message: 'Note added' }),
  );

  app.post(
    '/api/orders/:id/emails/:emailId/resend',
    {
      onRequest: adminOnly,
      schema: {
        params: Type.Object({ id: IdParams.properties.id, emailId: IdParams.properties.id }),
        querystring: NoQuery,
        body: ResendOrderEmailBody,
        response: { 200: DataEnvelope(OrderEmail), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const data = await resendOrderEmail({ uow: deps.uow, ...requestOrigin(request) }, request.params.id, request.params.emailId, request.body.requestId);
      deps.mail.nudge();
      return { data, message: `The e-mail is being sent again to ${data.to}` };
    },
  );

  app.post(
    '/api/orders/:id/refunds',
    {
      onRequest: adminOnly,
      schema: {
        params: IdParams,
        querystring: NoQuery,
        body: RefundOrderBody,
        response: { 200: DataEnvelope(OrderRefund), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const refund = await requestRefund(
        { uow: deps.uow, db, provider: deps.provider, shop: deps.mail.shop, speed: deps.refundSpeed, ...requestOrigin(request) },
        request.params.id,
        request.body,
      );
      deps.mail.nudge();
      const message =
        refund.status === 'failed'
          ? (refund.failure ?? 'The refund failed')
          : refund.status === 'processed'
            ? 'Refunded'
            : 'The refund is on its way: Razorpay confirms it shortly';
      return { data: toOrderRefund(refund), message };
    },
  );

  // After the sale (issue 23): the Persona re-issued with corrected names, a printed copy cancelled before dispatch.
  app.post(
    '/api/orders/:id/persona/reissue',
    {
      onRequest: adminOnly,
      schema: {
        params: IdParams,
        querystring: NoQuery,
        body: ReissuePersonaBody,
        response: { 200: DataEnvelope(PersonaReissue), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const data = await reissuePersona({ uow: deps.uow, ...requestOrigin(request) }, request.params.id, request.body);
      return { data, message: `Persona ${data.newPersonaId} is being made; the buyer is e-mailed when it is ready` };
    },
  );

  app.post(
    '/api/orders/:id/print/cancel',
    {
      onRequest: adminOnly,
      schema: {
        params: IdParams,
        querystring: NoQuery,
        body: CancelPrintBody,
        response: { 200: DataEnvelope(Order), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const { order, refund } = await cancelPrint(
        { uow: deps.uow, db, provider: deps.provider, shop: deps.mail.shop, speed: deps.refundSpeed, ...requestOrigin(request) },
        request.params.id,
        request.body,
      );
      deps.mail.nudge();
      const refunded = !refund
        ? 'nothing to refund'
        : refund.status === 'failed'
          ? `the refund failed: ${refund.failure ?? 'no reason given'}`
          : `${formatInr(refund.amount_paise / 100)} ${refund.status === 'processed' ? 'refunded' : 'is being refunded'}`;
      return { data: order, message: `Printed copy cancelled; ${refunded}` };
    },
  );
}
