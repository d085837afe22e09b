// Bench server: the catalogue service alone (PGlite + in-process bus), printing its URL.
const os = require('node:os');
const path = require('node:path');
const { mkdtempSync } = require('node:fs');
const { openPglite, openDatabase } = require('@persona/db');
const { createInProcessBus } = require('@persona/bus');
const { startCatalogueService, CATALOGUE_SCHEMA } = require('@persona/catalogue');
const { createLogger } = require('@persona/service-kit');

(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-catalogue-'));
  const pglite = await openPglite(path.join(dir, 'db'));
  const logger = createLogger('catalogue', 'warn');
  const bus = createInProcessBus({ database: openDatabase({ kind: 'pglite', shared: pglite }, 'bus'), logger });
  const service = await startCatalogueService({
    database: openDatabase({ kind: 'pglite', shared: pglite }, CATALOGUE_SCHEMA),
    bus,
    logger,
    jwtSecret: 'bench-secret-bench-secret-bench-secret-00',
    filesDir: path.join(dir, 'files'),
    seedDemo: true,
  });
  const url = await service.app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(JSON.stringify({ url }) + '\n');
})();
