// Category writes: each change bumps the catalogue version and records its
// event in the same transaction.
import { createEvent } from '@persona/bus';
import { printableTextProblem, type Category, type CategoryBody } from '@persona/contracts';
import { isForeignKeyViolation, isUniqueViolation } from '@persona/db';
import { badRequest, conflict, notFound } from '@persona/service-kit';
import { bumpCatalogueVersion } from '../catalogue-version.repository';
import type { WriteContext } from '../context';
import { toCategory } from './categories.mapper';
import * as repo from './categories.repository';

const DUPLICATE_NAME = 'A category with this name already exists';

/** The body as kept; a name no Persona could print is refused (the one printing rule of every field a book's Persona may carry). */
function clean(body: CategoryBody): { name: string; description: string } {
  const problem = printableTextProblem(body.name, 'The category name');
  if (problem) throw badRequest(problem);
  return { name: body.name.trim(), description: (body.description ?? '').trim() };
}

export async function createCategory(ctx: WriteContext, body: CategoryBody): Promise<Category> {
  try {
    const category = await ctx.uow.run(async ({ trx, emit }) => {
      const created = await repo.insertCategory(trx, clean(body));
      await bumpCatalogueVersion(trx);
      await emit(createEvent('category.created', { categoryId: created.id, name: created.name }, { correlationId: ctx.correlationId, actor: ctx.actor }));
      return created;
    });
    return toCategory(category);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(DUPLICATE_NAME, 'DUPLICATE_CATEGORY');
    throw err;
  }
}

export async function updateCategory(ctx: WriteContext, id: string, body: CategoryBody): Promise<Category> {
  try {
    const category = await ctx.uow.run(async ({ trx, emit }) => {
      const updated = await repo.updateCategory(trx, id, clean(body));
      if (!updated) throw notFound('Category not found');
      await bumpCatalogueVersion(trx);
      await emit(createEvent('category.updated', { categoryId: updated.id, name: updated.name }, { correlationId: ctx.correlationId, actor: ctx.actor }));
      return updated;
    });
    return toCategory(category);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(DUPLICATE_NAME, 'DUPLICATE_CATEGORY');
    throw err;
  }
}

export async function deleteCategory(ctx: WriteContext, id: string): Promise<Category> {
  const category = await ctx.uow
    .run(async ({ trx, emit }) => {
      const existing = await repo.findCategory(trx, id);
      if (!existing) throw notFound('Category not found');
      const inUse = await repo.countBooksInCategory(trx, id);
      if (inUse > 0) {
        throw conflict(
          `This category is used by ${inUse} book${inUse === 1 ? '' : 's'}; move or delete ${inUse === 1 ? 'it' : 'them'} first`,
          'CATEGORY_IN_USE',
        );
      }
      const deleted = await repo.deleteCategory(trx, id);
      if (!deleted) throw notFound('Category not found');
      await bumpCatalogueVersion(trx);
      await emit(createEvent('category.deleted', { categoryId: deleted.id, name: deleted.name }, { correlationId: ctx.correlationId, actor: ctx.actor }));
      return deleted;
    })
    .catch((err: unknown) => {
      // A book added to the category between the count and the delete.
      if (isForeignKeyViolation(err)) throw conflict('This category is used by books; move or delete them first', 'CATEGORY_IN_USE');
      throw err;
    });
  return toCategory(category);
}
