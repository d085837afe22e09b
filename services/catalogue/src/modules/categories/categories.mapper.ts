// A category row as the API shows it.
import type { Category } from '@persona/contracts';
import type { CategoryRow } from './categories.repository';

export function toCategory(row: CategoryRow): Category {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
