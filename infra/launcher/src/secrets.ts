// Secrets the embedded shop needs but a newcomer should not have to invent:
// generated on first start and kept in the data folder (mode 0600).
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface ShopSecrets {
  jwtSecret: string;
  /** Lets the personalisation service read a book's full text from the catalogue. */
  internalToken: string;
}

export async function loadOrCreateSecrets(dataDir: string, env: NodeJS.ProcessEnv = process.env): Promise<ShopSecrets> {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<ShopSecrets> = {};
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as Partial<ShopSecrets>;
  } catch {
    // first start
  }
  const secrets: ShopSecrets = {
    jwtSecret: env.JWT_SECRET ?? stored.jwtSecret ?? randomBytes(32).toString('base64url'),
    internalToken: env.INTERNAL_TOKEN ?? stored.internalToken ?? randomBytes(32).toString('base64url'),
  };
  if (secrets.jwtSecret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
  if (secrets.internalToken.length < 32) throw new Error('INTERNAL_TOKEN must be at least 32 characters');
  // Only generated secrets are written down; ones given in the environment stay there.
  const toStore = { ...(env.JWT_SECRET ? {} : { jwtSecret: secrets.jwtSecret }), ...(env.INTERNAL_TOKEN ? {} : { internalToken: secrets.internalToken }) };
  if (Object.entries(toStore).some(([k, v]) => stored[k as keyof ShopSecrets] !== v)) {
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, JSON.stringify(toStore, null, 2), { mode: 0o600 });
  }
  return secrets;
}
