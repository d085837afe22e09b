// The column types kysely-codegen writes at the top of every file it generates (its PostgreSQL
// dialect, with int8 and numeric read as numbers as type-parsers.ts reads them), written once here:
// scripts/db-types.mjs has each service's db.generated.ts import them instead of repeating them.
import type { ColumnType } from 'kysely';

/** A column the database fills when an insert leaves it out (kysely-codegen's, which keeps a ColumnType's own insert and update types). */
export type GeneratedColumn<T> = T extends ColumnType<infer S, infer I, infer U> ? ColumnType<S, I | undefined, U> : ColumnType<T, T | undefined, T>;

export type Json = JsonValue;

export type JsonArray = JsonValue[];

export type JsonObject = {
  [x: string]: JsonValue | undefined;
};

export type JsonPrimitive = boolean | number | string | null;

export type JsonValue = JsonArray | JsonObject | JsonPrimitive;

export type Numeric = ColumnType<number, number | string, number | string>;

export type Timestamp = ColumnType<Date, Date | string, Date | string>;
