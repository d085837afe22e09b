// Bench server: the gateway in front of CATALOGUE_URL, printing its URL. With SHARED_CACHE=off its
// shared cache is off: every request makes the upstream hop (the proxy path measured alone).
const path = require('node:path');
const { buildGateway } = require('@persona/gateway');

(async () => {
  const app = await buildGateway({
    upstreams: { catalogue: process.env.CATALOGUE_URL },
    jwtSecret: 'bench-secret-bench-secret-bench-secret-00',
    storefrontDir: path.join(path.dirname(require.resolve('@persona/storefront/package.json')), 'dist'),
    adminAppDir: path.join(path.dirname(require.resolve('@persona/admin-app/package.json')), 'dist'),
    publicUrl: 'http://localhost',
    // The limit stays on (as in production), set above the load so it never trips.
    rateLimitMax: 10_000_000,
    sharedCache: process.env.SHARED_CACHE !== 'off',
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(JSON.stringify({ url }) + '\n');
})();
