// The fault suite (`npm run test:faults`): the distributed mode and the cluster
// on the real PostgreSQL, RabbitMQ and Redis under SIGKILLs, a broker restart, a
// slow SMTP server and a database outage. Kept out of `npm test` (see jest.config.js); one file at a time.
module.exports = {
  preset: '@persona/test-kit',
  testMatch: ['<rootDir>/faults/**/*.test.ts'],
  testTimeout: 600000,
  maxWorkers: 1,
};
