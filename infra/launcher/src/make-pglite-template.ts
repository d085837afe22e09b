// Build step: an initialised, empty embedded database packed as a tarball,
// so the shop's first start unpacks it (about a second) instead of running
// initdb (several seconds).
import path from 'node:path';
import { dumpPgliteTemplate } from '@persona/db';

export const PGLITE_TEMPLATE = path.join(__dirname, 'pglite-template.tar.gz');

if (require.main === module) {
  dumpPgliteTemplate(PGLITE_TEMPLATE).catch((err: Error) => {
    process.stderr.write(`could not make the database template: ${err.message}\n`);
    process.exit(1);
  });
}
