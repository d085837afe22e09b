import type { Envelope, PublicOrder } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';

/** GET /api/orders/:personaId: what the holder of a persona id may see. */
export async function getOrderByPersonaId(personaId: string, signal?: AbortSignal): Promise<PublicOrder> {
  const answer = await api.get<Envelope<PublicOrder>>(`/orders/${encodeURIComponent(personaId)}`, undefined, signal);
  return answer.data;
}
