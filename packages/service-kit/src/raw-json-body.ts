// What a signed webhook's route needs: the exact bytes its sender signed, so a scope's JSON bodies
// stay raw (a Buffer, at most `limit` bytes), for the signature to be checked before anything reads them.
import type { FastifyInstance } from 'fastify';

export function keepJsonRaw(scope: FastifyInstance, limit: number): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: limit }, (_request, body, done) => done(null, body));
}
