// Sources import each other with `.js` (Node ESM, for the Vite configs that load dist directly): map to the .ts files.
module.exports = { preset: '@persona/test-kit', testEnvironment: 'node', moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' } };
