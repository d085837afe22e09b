// Sends a cached answer as the public routes do (books, tags): its ETag, and 304 when the caller has it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedAnswer } from './book-cache';

export function sendCached(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer) {
  // Browsers revalidate every time (cheap: 304 on a matching ETag); a shared
  // cache such as the gateway's may reuse the answer for one second.
  reply.header('etag', answer.etag).header('cache-control', 'public, max-age=0, must-revalidate, s-maxage=1');
  if (request.headers['if-none-match'] === answer.etag) return reply.status(304).send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}
