import type { Envelope, LoginBody, LoginData } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';

export async function login(body: LoginBody): Promise<LoginData> {
  const answer = await api.post<Envelope<LoginData>>('/admin/login', body);
  return answer.data;
}
