// Bench reference: a bare Fastify handler answering the same bytes as GET /api/books.
const Fastify = require('fastify');

(async () => {
  const res = await fetch(`${process.env.CATALOGUE_URL}/api/books`);
  const body = Buffer.from(await res.arrayBuffer());
  const app = Fastify({ logger: false });
  app.get('/api/books', (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(JSON.stringify({ url, bytes: body.length }) + '\n');
})();
