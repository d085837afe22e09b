// /api/tags: the explore chips (spec §2, §5): distinct lower-cased tags with how many books carry each.
import { ErrorBody, ListEnvelope, TagCount, TagQuery } from '@persona/contracts';
import type { ServiceApp } from '@persona/service-kit';
import type { CatalogueDeps } from '../deps';
import { tagsAnswer } from '../modules/books/cached-answers';
import { sendCached } from '../modules/books/send-cached';

export default async function tagRoutes(app: ServiceApp, deps: CatalogueDeps) {
  app.get('/api/tags', { schema: { querystring: TagQuery, response: { 200: ListEnvelope(TagCount), 400: ErrorBody } } }, async (request, reply) =>
    sendCached(request, reply, await tagsAnswer(deps.cache, request.query)),
  );
}
