// Tables of the in-process (embedded) transport. Frozen in time: never edit a
// migration, add one. Unqualified names: they land in the bus's own schema.
import { sql, type Kysely, type Migration } from 'kysely';

export const inProcessBusMigrations: Record<string, Migration> = {
  '00000000000001_bus_in_process': {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE bus_bindings (
          queue text NOT NULL,
          pattern text NOT NULL,
          PRIMARY KEY (queue, pattern)
        )`.execute(db);
      await sql`
        CREATE TABLE bus_messages (
          id bigserial PRIMARY KEY,
          queue text NOT NULL,
          message_id text NOT NULL,
          envelope jsonb NOT NULL,
          attempts integer NOT NULL DEFAULT 0,
          deliveries integer NOT NULL DEFAULT 0,
          available_at timestamptz NOT NULL DEFAULT now(),
          locked_until timestamptz,
          lock_token text,
          dead boolean NOT NULL DEFAULT false,
          last_error text,
          created_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE INDEX bus_messages_live_idx ON bus_messages (queue, id) WHERE NOT dead`.execute(db);
      await sql`CREATE INDEX bus_messages_dead_idx ON bus_messages (queue, id) WHERE dead`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`DROP TABLE bus_messages`.execute(db);
      await sql`DROP TABLE bus_bindings`.execute(db);
    },
  },
};
