// A jest reporter that writes how many tests the run counted (passed, failed, skipped, suites) to
// $PERSONA_TEST_COUNTS/<workspace>.json, for the summary `npm test` prints (scripts/test.mjs).
// With each count, the run's test files and how long each took (`files`: path from the workspace and
// seconds), so the summary can name the slowest. Without that variable it does nothing.
const fs = require('node:fs');
const path = require('node:path');

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
    };
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name.replace(/[^\w.-]+/g, '+')}.json`), JSON.stringify(counts));
  }
}

module.exports = CountReporter;
