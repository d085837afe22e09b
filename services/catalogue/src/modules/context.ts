import type { Kysely } from 'kysely';
import type { CatalogueDB } from '../db';

/** What the catalogue's write operations need besides their input. */
export interface WriteContext {
  db: Kysely<CatalogueDB>;
  correlationId: string;
  /** Called after a commit that wrote outbox rows, to wake the relay. */
  afterCommit: () => void;
}
