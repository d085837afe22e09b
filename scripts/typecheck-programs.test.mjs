// `npm run typecheck:programs` checks types in three programs (tsconfig.node.json, tsconfig.web.json,
// e2e/tsconfig.json) instead of a program per workspace. Run by `npm run lint:root`, this holds them
// to the workspaces: every file a workspace's own tsconfig.json checks is in one of the three, and the
// Node program reads every @persona package its files import from that package's sources (a package
// read from its build as well would be two declarations of each of its classes, and unchecked).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { PROGRAMS } from './typecheck-programs.mjs';

const root = path.resolve(import.meta.dirname, '..');

function parsed(configFile) {
  const file = path.resolve(root, configFile);
  const config = ts.getParsedCommandLineOfConfigFile(file, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(String(d.messageText)) });
  assert.deepEqual(config.errors, [], `${configFile}: ${config.errors.map((e) => e.messageText).join('; ')}`);
  return config;
}

function workspaceDirs() {
  const { workspaces } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return workspaces.flatMap((pattern) =>
    pattern.endsWith('/*')
      ? ts.sys.getDirectories(path.join(root, pattern.slice(0, -2))).map((d) => path.join(root, pattern.slice(0, -2), d))
      : [path.join(root, pattern)],
  );
}

test('every file a workspace checks on its own is in one of the three programs', () => {
  const covered = new Set(PROGRAMS.flatMap((p) => parsed(p).fileNames));
  const missing = [];
  let checked = 0;
  for (const dir of workspaceDirs()) {
    if (!ts.sys.fileExists(path.join(dir, 'tsconfig.json'))) continue;
    for (const file of parsed(path.join(dir, 'tsconfig.json')).fileNames) {
      checked += 1;
      if (!covered.has(file)) missing.push(path.relative(root, file));
    }
  }
  assert.ok(checked > 500, `only ${checked} files found in the workspaces' tsconfigs`);
  assert.deepEqual(missing, [], 'add these to an include of tsconfig.node.json or tsconfig.web.json');
});

test('the Node program reads every @persona package its files import from the package’s sources', () => {
  const config = parsed('tsconfig.node.json');
  const mapped = Object.keys(config.options.paths ?? {});
  const isMapped = (specifier) => mapped.some((key) => (key.endsWith('/*') ? specifier.startsWith(key.slice(0, -1)) : specifier === key));
  const unmapped = new Set();
  for (const file of config.fileNames) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from|import\(|require\()\s*'(@persona\/[\w-]+(?:\/[\w./-]+)?)'/g)) {
      if (specifier !== '@persona/test-kit/jest-preset' && !isMapped(specifier)) unmapped.add(specifier);
    }
  }
  assert.deepEqual([...unmapped].sort(), [], "add these to tsconfig.node.json's paths");
  for (const [key, [target]] of Object.entries(config.options.paths ?? {})) {
    if (!key.endsWith('/*')) assert.ok(ts.sys.fileExists(path.resolve(root, target)), `${key} → ${target}: no such file`);
  }
});
