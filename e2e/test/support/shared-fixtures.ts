// What global-setup.ts leaves for the suites, in the environment their workers inherit.
import { cp, rm } from 'node:fs/promises';
import path from 'node:path';

/** The playwright server's address of the run's one Chromium. */
export const CHROMIUM_SERVER_ENV = 'PERSONA_E2E_CHROMIUM_WS';
/** A stopped shop's data directory, fresh from its first start. */
export const SHOP_TEMPLATE_ENV = 'PERSONA_E2E_SHOP_TEMPLATE';

/** The administrator every test shop starts with (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const TEST_ADMIN = { email: 'owner@persona-books.in', password: 'correct horse battery', name: 'Asha' };
export const TEST_ADMIN_ENV = { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password, ADMIN_NAME: TEST_ADMIN.name };

/**
 * Fills `dataDir` (not yet existing) from the run's shop template, when there is one: the shop then
 * starts on databases already migrated and a catalogue already seeded. False: no template (a single
 * file run without the global setup, or an external shop); the shop starts from nothing as before.
 */
export async function fromShopTemplate(dataDir: string): Promise<boolean> {
  const template = process.env[SHOP_TEMPLATE_ENV];
  if (!template) return false;
  await cp(template, dataDir, { recursive: true });
  // Nothing is sent at start-up, but a copy must never carry another shop's e-mails; and each shop
  // makes secrets of its own (a token one suite's shop signed means nothing to another's).
  await rm(path.join(dataDir, 'mail'), { recursive: true, force: true });
  await rm(path.join(dataDir, 'secrets.json'), { force: true });
  return true;
}
