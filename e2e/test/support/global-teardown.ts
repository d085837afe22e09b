// After every suite: stops the shared Chromium and removes the shops' template (see global-setup.ts).
import { rm } from 'node:fs/promises';

export default async function globalTeardown(): Promise<void> {
  const fixtures = globalThis.personaE2eFixtures;
  if (!fixtures) return;
  await fixtures.browserServer?.close();
  if (fixtures.templateRoot) await rm(fixtures.templateRoot, { recursive: true, force: true });
}
