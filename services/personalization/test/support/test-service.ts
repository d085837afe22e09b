// The personalisation service as its service tests start it: on a fresh PGlite stack, with a
// Personas folder of its own, no catalogue to call unless a test gives readers; `close` stops it
// and removes both.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TEST_JWT_SECRET } from '@persona/test-kit';
import { openTestStack } from '@persona/test-stack';
import type { PersonalizationDB } from '../../src/db';
import { startPersonalizationService, type PersonalizationServiceOptions } from '../../src/service';

export async function startTestService(overrides: Partial<PersonalizationServiceOptions> = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'personas-'));
  const stack = await openTestStack<PersonalizationDB>('pglite', 'personalization');
  const service = await startPersonalizationService({
    database: stack.database,
    bus: stack.bus,
    logger: stack.logger,
    catalogueUrl: 'http://127.0.0.1:1',
    internalToken: 'x'.repeat(32),
    jwtSecret: TEST_JWT_SECRET,
    publicUrl: 'https://shop.example',
    personasDir: dir,
    ...overrides,
  });
  return {
    service,
    stack,
    async close() {
      await service.close();
      await stack.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
