// Bench reference: a bare Fastify server answering, at each of BARE_PATHS (comma-separated, default
// /api/books), the bytes the catalogue at CATALOGUE_URL answers there, read once at start.
const Fastify = require('fastify');

(async () => {
  const paths = (process.env.BARE_PATHS ?? '/api/books').split(',');
  const app = Fastify({ logger: false });
  const answers = new Map();
  for (const p of paths) {
    const res = await fetch(`${process.env.CATALOGUE_URL}${p}`);
    answers.set(p, Buffer.from(await res.arrayBuffer()));
  }
  for (const route of new Set(paths.map((p) => p.split('?')[0]))) {
    app.get(route, (request, reply) => {
      const body = answers.get(request.url);
      if (!body) return reply.status(404).send();
      return reply.type('application/json; charset=utf-8').send(body);
    });
  }
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const bytesByPath = Object.fromEntries([...answers].map(([p, body]) => [p, body.length]));
  process.stdout.write(JSON.stringify({ url, bytes: bytesByPath[paths[0]], bytesByPath }) + '\n');
})();
