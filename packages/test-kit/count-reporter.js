// A jest reporter that writes how many tests the run counted (passed, failed, skipped, suites) to
// $PERSONA_TEST_COUNTS/<workspace>.json, for the summary `npm test` prints (scripts/test.mjs).
// With each count, the run's test files and how long each took (`files`: path from the workspace and
// seconds), so the summary can name the slowest; and each failure (`failures`: file, the test's full
// name and the first lines of its message, or the suite's own error when it could not run), so the
// summary's tail names what failed even where only the end of a long run's output is kept. Without
// that variable it does nothing.
const fs = require('node:fs');
const path = require('node:path');

/** How many lines of a failure's message the summary keeps. */
const MESSAGE_LINES = 8;

/** A failure message's first lines, without the terminal's colour codes. */
function firstLines(message) {
  return (
    String(message ?? '')
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .slice(0, MESSAGE_LINES)
      .join('\n')
  );
}

class CountReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const dir = process.env.PERSONA_TEST_COUNTS;
    if (!dir) return;
    let name = path.basename(this.rootDir);
    try {
      name = JSON.parse(fs.readFileSync(path.join(this.rootDir, 'package.json'), 'utf8')).name ?? name;
    } catch {
      // a root without a package.json keeps its folder's name
    }
    const counts = {
      name,
      passed: results.numPassedTests,
      failed: results.numFailedTests,
      skipped: results.numPendingTests + results.numTodoTests,
      total: results.numTotalTests,
      suites: results.numTotalTestSuites,
      files: results.testResults.map((r) => ({
        file: path.relative(this.rootDir, r.testFilePath),
        seconds: (r.perfStats.end - r.perfStats.start) / 1000,
      })),
      failures: results.testResults.flatMap((r) => {
        const file = path.relative(this.rootDir, r.testFilePath);
        const failed = r.testResults
          .filter((t) => t.status === 'failed')
          .map((t) => ({ file, test: t.fullName, message: firstLines(t.failureMessages.join('\n')) }));
        if (failed.length === 0 && r.testExecError) return [{ file, test: '(the file could not run)', message: firstLines(r.testExecError.message) }];
        return failed;
      }),
    };
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name.replace(/[^\w.-]+/g, '+')}.json`), JSON.stringify(counts));
  }
}

module.exports = CountReporter;
