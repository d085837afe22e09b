// The fault suite under faults/ has its own config (jest.faults.config.js, `npm run test:faults`).
module.exports = { preset: '@persona/test-kit', testTimeout: 60000, testPathIgnorePatterns: ['/node_modules/', '<rootDir>/faults/'] };
