module.exports = { preset: '@persona/test-kit' };
