// The outbox and inbox tables, created in the service's own schema (the
// session's search_path), so names stay unqualified. Frozen in time: these
// migrations import nothing from app code and are never edited, only added to.
// The names sort before any service migration ('20…').
import { sql, type Kysely, type Migration } from 'kysely';

export const outboxMigrations: Record<string, Migration> = {
  '00000000000001_bus_outbox': {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE outbox (
          id bigserial PRIMARY KEY,
          event_id text NOT NULL UNIQUE,
          type text NOT NULL,
          envelope jsonb NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          published_at timestamptz,
          locked_until timestamptz,
          attempts integer NOT NULL DEFAULT 0,
          last_error text
        )`.execute(db);
      await sql`CREATE INDEX outbox_unpublished_idx ON outbox (id) WHERE published_at IS NULL`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`DROP TABLE outbox`.execute(db);
    },
  },
  '00000000000002_bus_inbox': {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE inbox (
          message_id text NOT NULL,
          consumer text NOT NULL,
          handled_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (message_id, consumer)
        )`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`DROP TABLE inbox`.execute(db);
    },
  },
  '00000000000003_bus_retention': {
    // Published outbox rows and inbox rows older than the retention are pruned (the relay's prune).
    async up(db: Kysely<unknown>) {
      await sql`CREATE INDEX outbox_published_idx ON outbox (published_at) WHERE published_at IS NOT NULL`.execute(db);
      await sql`CREATE INDEX inbox_handled_idx ON inbox (handled_at)`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`DROP INDEX inbox_handled_idx`.execute(db);
      await sql`DROP INDEX outbox_published_idx`.execute(db);
    },
  },
};
