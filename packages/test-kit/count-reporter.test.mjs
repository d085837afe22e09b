// The count reporter's file, as `npm test`'s summary reads it (run by `npm run lint:root`).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const CountReporter = createRequire(import.meta.url)('./count-reporter.js');
const rootDir = path.resolve(import.meta.dirname);

test('writes the counts, each file’s time, and each failure with the first lines of its message', (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'counts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const before = process.env.PERSONA_TEST_COUNTS;
  process.env.PERSONA_TEST_COUNTS = dir;
  t.after(() => (before === undefined ? delete process.env.PERSONA_TEST_COUNTS : (process.env.PERSONA_TEST_COUNTS = before)));
  const message = ['\u001b[31mError: the standby did not answer\u001b[39m', '', ...Array.from({ length: 20 }, (_, i) => `    at frame ${i}`)].join('\n');
  new CountReporter({ rootDir }).onRunComplete(null, {
    numPassedTests: 1,
    numFailedTests: 1,
    numPendingTests: 1,
    numTodoTests: 0,
    numTotalTests: 3,
    numTotalTestSuites: 2,
    testResults: [
      {
        testFilePath: path.join(rootDir, 'test/a.test.ts'),
        perfStats: { start: 1_000, end: 3_500 },
        testResults: [
          { status: 'passed', fullName: 'a passes', failureMessages: [] },
          { status: 'failed', fullName: 'a fails', failureMessages: [message] },
        ],
      },
      {
        testFilePath: path.join(rootDir, 'test/b.test.ts'),
        perfStats: { start: 0, end: 0 },
        testResults: [],
        testExecError: { message: 'Cannot find module x' },
      },
    ],
  });
  const written = JSON.parse(readFileSync(path.join(dir, '+persona+test-kit.json'), 'utf8'));
  assert.deepEqual(
    { ...written, files: undefined, failures: undefined },
    { name: '@persona/test-kit', passed: 1, failed: 1, skipped: 1, total: 3, suites: 2, files: undefined, failures: undefined },
  );
  assert.deepEqual(written.files, [
    { file: 'test/a.test.ts', seconds: 2.5 },
    { file: 'test/b.test.ts', seconds: 0 },
  ]);
  assert.deepEqual(written.failures, [
    {
      file: 'test/a.test.ts',
      test: 'a fails',
      message: ['Error: the standby did not answer', ...Array.from({ length: 7 }, (_, i) => `    at frame ${i}`)].join('\n'),
    },
    { file: 'test/b.test.ts', test: '(the file could not run)', message: 'Cannot find module x' },
  ]);
});
