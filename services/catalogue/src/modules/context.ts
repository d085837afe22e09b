import type { EventOrigin, UnitOfWork } from '@persona/bus';
import type { Kysely } from 'kysely';
import type { CatalogueDB } from '../db';

/** What the catalogue's write operations need besides their input. */
export interface WriteContext extends EventOrigin {
  db: Kysely<CatalogueDB>;
  /** Runs a change and its events as one transaction; wakes the relay and drops cached answers after it commits. */
  uow: UnitOfWork<CatalogueDB>;
}
