// The fault suite under faults/ has its own config (jest.faults.config.js, `npm run test:faults`).
// globalSetup starts the run's one Chromium and makes the shops' data template (test/support/global-setup.ts).
module.exports = {
  preset: '@persona/test-kit',
  testTimeout: 60000,
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/faults/'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};
