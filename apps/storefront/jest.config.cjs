module.exports = {
  preset: '@persona/test-kit',
  testEnvironment: 'node',
  // Components import their stylesheets; the server render (and its tests) have no use for them.
  moduleNameMapper: { '\\.css$': '<rootDir>/src/test-style-stub.cjs' },
};
