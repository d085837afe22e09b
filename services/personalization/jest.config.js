const preset = require('@persona/test-kit/jest-preset');
const [swc, options] = preset.transform['^.+\\.(t|j|mj)sx?$'];

// harfbuzzjs is ESM-only: its dynamic import() stays an import() (run with --experimental-vm-modules,
// as every test script does), instead of becoming a require().
module.exports = {
  preset: '@persona/test-kit',
  transform: { '^.+\\.(t|j|mj)sx?$': [swc, { ...options, module: { ...options.module, ignoreDynamic: true } }] },
};
