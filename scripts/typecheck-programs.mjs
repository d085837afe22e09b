// `npm run typecheck:programs`: the types of every workspace, checked once, in one TypeScript program
// per platform (a tsc per workspace loaded Node's, Fastify's and kysely's types twenty times: 137 s
// of CPU in `npm test`, against 57 s for these three, 2026-12-07). Each program is checked even
// when one before it fails, so one run shows every error; exits non-zero when any failed.
// scripts/typecheck-programs.test.mjs holds the programs to the workspaces.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The programs, by tsconfig: packages, services and the launcher; the apps and web-kit; e2e. */
export const PROGRAMS = ['tsconfig.node.json', 'tsconfig.web.json', 'e2e/tsconfig.json'];

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(import.meta.dirname, '..');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  let failed = 0;
  for (const program of PROGRAMS) {
    const t0 = Date.now();
    const { status } = spawnSync(process.execPath, [tsc, '-p', program], { cwd: root, stdio: 'inherit' });
    console.log(`${status === 0 ? 'ok  ' : 'FAIL'} ${program} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    if (status !== 0) failed += 1;
  }
  process.exit(failed === 0 ? 0 : 1);
}
