// The categories' rows (categories.mapper makes the wire shape).
import type { Kysely } from 'kysely';
import type { CatalogueDB } from '../../db';

type Db = Kysely<CatalogueDB>;

const COLUMNS = ['id', 'name', 'description', 'created_at', 'updated_at'] as const;

export interface CategoryRow {
  id: string;
  name: string;
  description: string;
  created_at: Date;
  updated_at: Date;
}

export async function listCategories(db: Db): Promise<CategoryRow[]> {
  const rows = await db.selectFrom('categories').select(COLUMNS).orderBy('name').execute();
  return rows;
}

export async function findCategory(db: Db, id: string): Promise<CategoryRow | undefined> {
  const row = await db.selectFrom('categories').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row;
}

export async function insertCategory(db: Db, values: { name: string; description: string }): Promise<CategoryRow> {
  const row = await db.insertInto('categories').values(values).returning(COLUMNS).executeTakeFirstOrThrow();
  return row;
}

export async function updateCategory(db: Db, id: string, values: { name: string; description?: string }): Promise<CategoryRow | undefined> {
  const row = await db
    .updateTable('categories')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
  return row;
}

export async function deleteCategory(db: Db, id: string): Promise<CategoryRow | undefined> {
  const row = await db.deleteFrom('categories').where('id', '=', id).returning(COLUMNS).executeTakeFirst();
  return row;
}

export async function countBooksInCategory(db: Db, id: string): Promise<number> {
  const row = await db
    .selectFrom('books')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('category_id', '=', id)
    .executeTakeFirstOrThrow();
  return row.n;
}
