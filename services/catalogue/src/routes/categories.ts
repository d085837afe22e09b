// /api/categories: public list, admin writes.
import { Category, CategoryBody, DataEnvelope, ErrorBody, IdParams, NoQuery } from '@persona/contracts';
import { requestOrigin, type ServiceApp } from '@persona/service-kit';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { toCategory } from '../modules/categories/categories.mapper';
import { listCategories } from '../modules/categories/categories.repository';
import { createCategory, deleteCategory, updateCategory } from '../modules/categories/categories.service';
import type { CatalogueDeps } from '../deps';

const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody };

export default async function categoryRoutes(app: ServiceApp, deps: CatalogueDeps) {
  const { db, adminOnly } = deps;
  const ctx = (request: FastifyRequest) => ({ db, uow: deps.uow, ...requestOrigin(request) });

  app.get('/api/categories', { schema: { querystring: NoQuery, response: { 200: DataEnvelope(Type.Array(Category)), 400: ErrorBody } } }, async () => ({
    // On the read replica once it holds the current catalogue version (BookCache.read).
    data: (await deps.cache.read(listCategories)).map(toCategory),
  }));

  app.post(
    '/api/categories',
    { onRequest: adminOnly, schema: { querystring: NoQuery, body: CategoryBody, response: { 201: DataEnvelope(Category), ...errors } } },
    async (request, reply) => reply.status(201).send({ data: await createCategory(ctx(request), request.body), message: 'Category created successfully' }),
  );

  app.put(
    '/api/categories/:id',
    { onRequest: adminOnly, schema: { params: IdParams, querystring: NoQuery, body: CategoryBody, response: { 200: DataEnvelope(Category), ...errors } } },
    async (request) => ({ data: await updateCategory(ctx(request), request.params.id, request.body), message: 'Category updated successfully' }),
  );

  app.delete(
    '/api/categories/:id',
    { onRequest: adminOnly, schema: { params: IdParams, querystring: NoQuery, response: { 200: DataEnvelope(Category), ...errors } } },
    async (request) => ({ data: await deleteCategory(ctx(request), request.params.id), message: 'Category deleted' }),
  );
}
