// Secrets the embedded shop needs but a newcomer should not have to invent:
// generated on first start and kept in the data folder (mode 0600).
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface ShopSecrets {
  jwtSecret: string;
}

export async function loadOrCreateSecrets(dataDir: string, env: NodeJS.ProcessEnv = process.env): Promise<ShopSecrets> {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<ShopSecrets> = {};
  try {
    stored = JSON.parse(await readFile(file, 'utf8')) as Partial<ShopSecrets>;
  } catch {
    // first start
  }
  const secrets: ShopSecrets = { jwtSecret: env.JWT_SECRET ?? stored.jwtSecret ?? randomBytes(32).toString('base64url') };
  if (secrets.jwtSecret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
  // Only a generated secret is written down; one given in the environment stays there.
  if (!stored.jwtSecret && !env.JWT_SECRET) {
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, JSON.stringify({ jwtSecret: secrets.jwtSecret }, null, 2), { mode: 0o600 });
  }
  return secrets;
}
