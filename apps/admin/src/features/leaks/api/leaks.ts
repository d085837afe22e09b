// Find a leaked copy: the copy goes up as multipart (one `file` field); the answer names the
// per-copy mark read from it and the order it was sold in, if any (admin only).
import type { Envelope, LeakFinding } from '@persona/contracts';
import { apiRequest } from '@persona/web-kit/api-client';

export const LEAK_UPLOAD_FIELD = 'file';

export async function findLeakedCopy(file: File, signal?: AbortSignal): Promise<LeakFinding> {
  const form = new FormData();
  form.append(LEAK_UPLOAD_FIELD, file, file.name);
  return (await apiRequest<Envelope<LeakFinding>>('/personas/leaks', { method: 'POST', body: form, signal })).data;
}
