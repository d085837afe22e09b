// Starts the admin service for a test on a fresh database and the in-process bus (the test stack),
// with its first administrator, Asha Owner; each test file says only what it changes.
import type { EventBus } from '@persona/bus';
import { openDatabase, type Database } from '@persona/db';
import { TEST_DATABASE_URL, TEST_JWT_SECRET } from '@persona/test-kit';
import { openTestStack } from '@persona/test-stack';
import type { AdminDB } from '../src/db';
import { startAdminService, type AdminService, type AdminServiceOptions } from '../src/service';

export const INTERNAL_TOKEN = 'internal-token-internal-token-internal-00';
export const OWNER = { email: 'owner@persona-books.in', password: 'correct horse battery', name: 'Asha Owner' };

export interface AdminHarness {
  service: AdminService;
  database: Database<AdminDB>;
  bus: EventBus;
  close(): Promise<void>;
}

type Changes = Partial<Pick<AdminServiceOptions, 'catalogueUrl' | 'countCap' | 'loginsPerMinute' | 'postsPerMinute' | 'redisUrl'>>;

/** `readUrl` (PostgreSQL only): the service's database reads its lists on that replica of the test server. */
export async function startAdminHarness(kind: 'pglite' | 'postgres', changes: Changes = {}, readUrl?: string): Promise<AdminHarness> {
  const stack = await openTestStack<AdminDB>(kind, 'admin');
  const database = readUrl ? openDatabase<AdminDB>({ kind: 'postgres', url: TEST_DATABASE_URL, readUrl }, stack.database.schema) : stack.database;
  const service = await startAdminService({
    database,
    bus: stack.bus,
    logger: stack.logger,
    jwtSecret: TEST_JWT_SECRET,
    internalToken: INTERNAL_TOKEN,
    catalogueUrl: 'http://127.0.0.1:1',
    firstAdmin: { ...OWNER, generate: false },
    ...changes,
  });
  return {
    service,
    database,
    bus: stack.bus,
    async close() {
      await service.close();
      if (database !== stack.database) await database.close();
      await stack.close();
    },
  };
}
