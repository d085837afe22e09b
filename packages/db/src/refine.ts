// A service's database types are the ones generated from its migrations (src/db.generated.ts,
// scripts/db-types.mjs) with narrower hand-written column types on top: a status's union, JSON read
// as `unknown`, a generated column no statement writes. The hand-written part can only narrow what
// the migrations make: naming a table or column they lack does not compile.

/** `Generated` (a table, or a whole database) with the members of `Narrower` in place of its own; each must be one it has. */
export type Refine<Generated, Narrower extends { [K in keyof Narrower]: K extends keyof Generated ? unknown : never }> = Omit<Generated, keyof Narrower> &
  Narrower;
