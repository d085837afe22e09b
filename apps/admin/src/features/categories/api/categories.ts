import type { Category, CategoryBody, Envelope } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';

export async function saveCategory(body: CategoryBody, id?: string): Promise<Category> {
  const answer = id
    ? await api.put<Envelope<Category>>(`/categories/${encodeURIComponent(id)}`, body)
    : await api.post<Envelope<Category>>('/categories', body);
  return answer.data;
}

export async function deleteCategory(id: string): Promise<void> {
  await api.delete(`/categories/${encodeURIComponent(id)}`);
}
