// The admin schema as kysely sees it: the tables its migrations make, as generated (db.generated.ts,
// `node scripts/db-types.mjs`); no column needs a narrower type than PostgreSQL's.
import type { DB } from './db.generated';

export type AdminDB = DB;
