module.exports = { preset: '@persona/test-kit', testTimeout: 60000 };
