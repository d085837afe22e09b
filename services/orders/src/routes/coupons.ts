// /api/coupons (issue 23): the owner's codes and their redemptions (admin only), and a code priced
// for a checkout (public, rate limited per client: codes are not to be guessed by the thousand).
import { Type } from '@sinclair/typebox';
import {
  Coupon,
  CouponPrice,
  CouponRedemption,
  CreateCouponBody,
  DataEnvelope,
  ErrorBody,
  IdParams,
  NoQuery,
  PriceCouponBody,
  UpdateCouponBody,
} from '@persona/contracts';
import { clientAddress, requestOrigin, type ServiceApp } from '@persona/service-kit';
import type { OrdersDeps } from '../deps';
import { couponRedemptions, createCoupon, listCoupons, priceCoupon, updateCoupon } from '../modules/coupons/coupons.service';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody };

export default async function couponRoutes(app: ServiceApp, deps: OrdersDeps) {
  const { db, adminOnly } = deps;

  app.get(
    '/api/coupons',
    { onRequest: adminOnly, schema: { querystring: NoQuery, response: { 200: DataEnvelope(Type.Array(Coupon)), 401: ErrorBody } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await listCoupons(db) };
    },
  );

  app.post(
    '/api/coupons',
    { onRequest: adminOnly, schema: { querystring: NoQuery, body: CreateCouponBody, response: { 200: DataEnvelope(Coupon), ...errors } } },
    async (request) => ({ data: await createCoupon({ uow: deps.uow, ...requestOrigin(request) }, request.body), message: 'Coupon saved' }),
  );

  app.put(
    '/api/coupons/:id',
    { onRequest: adminOnly, schema: { params: IdParams, querystring: NoQuery, body: UpdateCouponBody, response: { 200: DataEnvelope(Coupon), ...errors } } },
    async (request) => ({
      data: await updateCoupon({ uow: deps.uow, ...requestOrigin(request) }, request.params.id, request.body),
      message: 'Coupon saved',
    }),
  );

  app.get(
    '/api/coupons/:id/redemptions',
    { onRequest: adminOnly, schema: { params: IdParams, querystring: NoQuery, response: { 200: DataEnvelope(Type.Array(CouponRedemption)), ...errors } } },
    async (request, reply) => {
      // Buyers' e-mails: no shared cache may keep them.
      reply.header('cache-control', 'no-store');
      return { data: await couponRedemptions(db, request.params.id) };
    },
  );

  app.post(
    '/api/coupons/price',
    {
      config: { rateLimit: { ...deps.lookupRateLimit, keyGenerator: clientAddress } },
      schema: {
        querystring: NoQuery,
        body: PriceCouponBody,
        response: { 200: DataEnvelope(CouponPrice), 400: ErrorBody, 404: ErrorBody, 429: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await priceCoupon(db, deps.readBook, request.body, request.correlationId) };
    },
  );
}
