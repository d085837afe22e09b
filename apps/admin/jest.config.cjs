module.exports = { preset: '@persona/test-kit', testEnvironment: 'node' };
