// `npm test`: everything CI checks, in as little time as two cores allow, in three steps one after
// another (each uses both cores on its own; two heavy steps at once only made every test slow enough
// to time out, and ended no sooner: the run is CPU-bound, measured 2026-12-07):
//
//   1. the root's checks (`npm run lint:root`: format, folder cycles, database types) while every
//      workspace builds (turbo; the builds emit without type checking);
//   2. ESLint once over every workspace (`eslint .` at the root: one process whose type-aware rules
//      read one TypeScript program per platform, instead of a process per workspace each loading the
//      same types again; after the build, since e2e and the apps read some packages' built types),
//      beside the typecheck (`npm run typecheck:programs`: the same three programs, tsconfig.node.json,
//      tsconfig.web.json and e2e's, so every file's types are checked once: 57 s of CPU in `npm test` where
//      a tsc per workspace took 137 s, each loading Node's, Fastify's and kysely's types again, 2026-12-07)
//      and turbo running every workspace's unit tests, two tasks at a time (the one ESLint process
//      fills what turbo's tasks leave idle);
//   3. the end-to-end suites (real Chromium against whole shops, two suites at a time);
//   then a summary: how long each step took, how many tests ran, passed, failed and were skipped,
//   by workspace, the slowest test files, and every failed test with the first lines of its message
//   (each jest run writes these through @persona/test-kit's count reporter).
//
// Exits non-zero when any step fails; a failing step does not stop the others, so one run shows
// every failure. TEST_CONCURRENCY sets how many tasks turbo runs at once (default 2).
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const countsDir = path.join(root, 'node_modules', '.cache', 'persona-test-counts');
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
/** How many of the slowest test files the summary names. */
const SLOWEST = 12;
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', PERSONA_TEST_COUNTS: countsDir };
const started = Date.now();
const steps = [];

/** Runs a command with each output line prefixed by `label` (when given); answers its exit code and time. */
function run(name, command, args, label) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: label ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (label) {
      for (const stream of [child.stdout, child.stderr]) {
        let rest = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk) => {
          const lines = (rest + chunk).split('\n');
          rest = lines.pop();
          for (const line of lines) process.stdout.write(`${label}${line}\n`);
        });
        stream.on('end', () => rest && process.stdout.write(`${label}${rest}\n`));
      }
    }
    child.on('close', (code, signal) => {
      const step = { name, ok: code === 0, seconds: (Date.now() - t0) / 1000, code: code ?? signal };
      steps.push(step);
      resolve(step);
    });
  });
}

const minutes = (s) => `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`;

function summary() {
  const counts = [];
  try {
    for (const file of readdirSync(countsDir)) counts.push(JSON.parse(readFileSync(path.join(countsDir, file), 'utf8')));
  } catch {
    // no jest run finished
  }
  counts.sort((a, b) => a.name.localeCompare(b.name));
  const total = counts.reduce(
    (t, c) => ({
      passed: t.passed + c.passed,
      failed: t.failed + c.failed,
      skipped: t.skipped + c.skipped,
      total: t.total + c.total,
      suites: t.suites + c.suites,
    }),
    { passed: 0, failed: 0, skipped: 0, total: 0, suites: 0 },
  );
  const lines = ['', '== npm test summary'];
  for (const s of steps) lines.push(`${s.ok ? 'ok  ' : 'FAIL'} ${s.name.padEnd(44)} ${minutes(s.seconds)}${s.ok ? '' : ` (exit ${s.code})`}`);
  lines.push('', 'tests by workspace (passed / failed / skipped, in suites):');
  for (const c of counts) lines.push(`  ${c.name.padEnd(28)} ${String(c.passed).padStart(5)} / ${c.failed} / ${c.skipped}  in ${c.suites}`);
  const files = counts.flatMap((c) => (c.files ?? []).map((f) => ({ ...f, name: c.name.replace('@persona/', '') })));
  files.sort((a, b) => b.seconds - a.seconds);
  lines.push('', 'the slowest test files (seconds, as the loaded machine timed them):');
  for (const f of files.slice(0, SLOWEST)) lines.push(`  ${f.seconds.toFixed(1).padStart(6)}  ${f.name}/${f.file}`);
  const failures = counts.flatMap((c) => (c.failures ?? []).map((f) => ({ ...f, name: c.name.replace('@persona/', '') })));
  if (failures.length > 0) {
    lines.push('', 'what failed:');
    for (const f of failures) {
      lines.push(`  ${f.name}/${f.file}: ${f.test}`);
      for (const line of f.message.split('\n')) lines.push(`      ${line}`);
    }
  }
  lines.push(
    `tests: ${total.total} (${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped) in ${total.suites} suites, ${counts.length} workspaces`,
    `npm test took ${minutes((Date.now() - started) / 1000)}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

rmSync(countsDir, { recursive: true, force: true });
mkdirSync(countsDir, { recursive: true });

const [rootChecks, build] = await Promise.all([
  run('root checks (npm run lint:root)', 'npm', ['run', '--silent', 'lint:root'], 'root: '),
  run('build (turbo run build)', 'npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], 'build: '),
]);
if (build.ok) {
  await Promise.all([
    run('lint, every workspace at once (eslint .)', 'npx', ['eslint', '--max-warnings=0', '.'], 'lint: '),
    run('typecheck, one program per platform', 'npm', ['run', '--silent', 'typecheck:programs'], 'types: '),
    run('unit tests (turbo)', 'npx', ['turbo', 'run', 'test', '--continue', `--concurrency=${concurrency}`, '--output-logs=full'], ''),
  ]);
  await run('end-to-end suites (e2e)', 'npm', ['run', '--silent', 'test:e2e', '--workspace=@persona/e2e'], 'e2e: ');
}
summary();
process.exit(rootChecks.ok && build.ok && steps.every((s) => s.ok) ? 0 : 1);
