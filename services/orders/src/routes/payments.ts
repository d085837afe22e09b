// /api/payments: initiate, verify, the Razorpay webhook (raw body, signature
// checked), and in test mode the stand-in's "buyer pays" action.
import { Type } from '@sinclair/typebox';
import secureJson from 'secure-json-parse';
import {
  DataEnvelope,
  ErrorBody,
  InitiatePaymentBody,
  PaymentWebhookEvent,
  PaymentWebhookReceipt,
  InitiatePaymentData,
  NoQuery,
  VerifyPaymentBody,
  VerifyPaymentData,
} from '@persona/contracts';
import { badRequest, HttpError, keepJsonRaw, notFound, type ServiceApp } from '@persona/service-kit';
import type { FastifyRequest } from 'fastify';
import type { OrdersDeps } from '../deps';
import { recordPaymentWebhook } from '../modules/payments/handle-payment-webhook';
import { initiatePayment } from '../modules/payments/initiate-payment';
import type { PaymentsContext } from '../modules/payments/payments-context';
import { NOT_SELLING_MESSAGE } from '../modules/payments/selling-refusal';
import { verifyPayment } from '../modules/payments/verify-payment';

const errors = { 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody, 502: ErrorBody, 503: ErrorBody };
const IdempotencyHeaders = Type.Object({ 'idempotency-key': Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_:.-]{8,100}$' })) });

export default async function paymentRoutes(app: ServiceApp, deps: OrdersDeps) {
  const ctx = (request: FastifyRequest): PaymentsContext => ({
    db: deps.db,
    provider: deps.provider,
    readBook: deps.readBook,
    correlationId: request.correlationId,
    uow: deps.uow,
    log: request.log,
  });

  app.post(
    '/api/payments/initiate',
    {
      schema: { querystring: NoQuery, body: InitiatePaymentBody, headers: IdempotencyHeaders, response: { 200: DataEnvelope(InitiatePaymentData), ...errors } },
    },
    async (request) => {
      // Live payments with a local PUBLIC_URL would sell copies that link to nowhere (selling-refusal.ts).
      if (deps.livePaymentsRefused) throw new HttpError(503, NOT_SELLING_MESSAGE, 'NOT_SELLING');
      return { data: await initiatePayment(ctx(request), request.body, request.headers['idempotency-key'] as string | undefined) };
    },
  );

  app.post(
    '/api/payments/verify',
    { schema: { querystring: NoQuery, body: VerifyPaymentBody, response: { 200: DataEnvelope(VerifyPaymentData), ...errors } } },
    async (request) => ({
      data: await verifyPayment(ctx(request), request.body),
      message: 'Payment verified successfully',
    }),
  );

  // The webhook needs the exact bytes Razorpay signed, so its body stays raw.
  await app.register(async (scope) => {
    keepJsonRaw(scope, 256 * 1024);
    scope.post(
      '/api/payments/webhook',
      {
        schema: {
          querystring: NoQuery,
          headers: Type.Object({
            'x-razorpay-signature': Type.Optional(Type.String({ maxLength: 200 })),
            'x-razorpay-event-id': Type.Optional(Type.String({ maxLength: 100 })),
          }),
          body: PaymentWebhookEvent,
          response: { 200: PaymentWebhookReceipt, 400: ErrorBody, 413: ErrorBody },
        },
      },
      async (request) => {
        deps.webhookInbox.arrived();
        const raw = request.body as Buffer | undefined;
        const signature = request.headers['x-razorpay-signature'] as string | undefined;
        if (!raw || !signature || !deps.provider.isValidWebhookSignature(raw, signature)) throw badRequest('Invalid webhook signature');
        const eventId = request.headers['x-razorpay-event-id'] as string | undefined;
        if (!eventId) throw badRequest('The x-razorpay-event-id header is required');
        let event: unknown;
        try {
          event = secureJson.parse(raw.toString('utf8'), undefined, { protoAction: 'error', constructorAction: 'error' });
        } catch {
          throw badRequest('The webhook body is not valid JSON');
        }
        // Recorded and answered; the payment it brings is made from the inbox (handle-payment-webhook.ts).
        const status = await recordPaymentWebhook(deps.db, eventId, deps.provider.webhookAction(event));
        if (status === 'accepted') deps.webhookInbox.nudge();
        return { status };
      },
    );
  });

  if (deps.standIn) {
    const standIn = deps.standIn;
    app.post(
      '/api/payments/test-mode/pay',
      {
        schema: {
          querystring: NoQuery,
          body: Type.Object(
            { razorpayOrderId: Type.String({ pattern: '^order_[A-Za-z0-9]{14}$' }), outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]) },
            { additionalProperties: false },
          ),
          response: { 200: DataEnvelope(Type.Unknown()), 400: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => {
        const result = await standIn.pay(request.body.razorpayOrderId, request.body.outcome);
        if (!result) throw notFound('No test-mode payment order has this id');
        return { data: result };
      },
    );
  }
}
