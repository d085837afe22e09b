// Work queued for a request whose client has gone (a buyer typing on, a flood that timed out at
// the gateway) is dropped rather than done for nobody.
import type { FastifyReply } from 'fastify';

/** Aborts when the connection closes before the answer was sent. */
export function abandonedSignal(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort(new Error('the client went away before the answer'));
  });
  return gone.signal;
}
