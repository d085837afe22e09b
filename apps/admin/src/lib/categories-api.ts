// The category list: the categories page manages it and the book form picks from it.
import type { Category, Envelope } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';

export async function listCategories(signal?: AbortSignal): Promise<Category[]> {
  return (await api.get<Envelope<Category[]>>('/categories', undefined, signal)).data;
}
