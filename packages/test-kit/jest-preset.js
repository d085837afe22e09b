// Shared jest preset: TypeScript through swc in CommonJS mode. fastify's
// inject pulls ESM-only packages (cookie, content-disposition), so those are
// transformed too instead of being ignored with the rest of node_modules.
// Every test file holds each app's inject answers to its OpenAPI document (src/inject-setup.ts).
const path = require('node:path');

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j|mj)sx?$': [
      require.resolve('@swc/jest'),
      {
        jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2022', transform: { react: { runtime: 'automatic' } } },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(cookie|content-disposition|set-cookie-parser)/)'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.tsx', '<rootDir>/src/**/*.test.tsx'],
  // A hang detector, not a speed target: long enough for a busy two-core machine running two lanes of tests.
  testTimeout: 60000,
  // The usual report, and the counts `npm test` sums up (count-reporter.js).
  reporters: ['default', require.resolve('./count-reporter.js')],
  // PostgreSQL, RabbitMQ and Redis probed once per run (global-setup.js), not once per test file.
  globalSetup: path.join(__dirname, 'global-setup.js'),
  setupFilesAfterEnv: [path.join(__dirname, 'dist/inject-setup.js')],
};
