// Jest 30 in native ESM (run with NODE_OPTIONS=--experimental-vm-modules, as the
// package.json scripts do). TypeScript is compiled by SWC; type checking is a
// separate step (`pnpm typecheck`). The tier of a test is in its file name.

/** @type {import('@swc/core').Options} */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

const ignored = ['/node_modules/', '<rootDir>/.data/', '<rootDir>/coverage/'];

/** @type {import('jest').Config} */
const base = {
  rootDir: '.',
  roots: ['<rootDir>'],
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testPathIgnorePatterns: ignored,
  modulePathIgnorePatterns: ['<rootDir>/.data/', '<rootDir>/coverage/'],
  watchPathIgnorePatterns: ignored,
};

/** @type {import('jest').Config} */
export default {
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: ['<rootDir>/**/*.unit.test.ts'],
    },
    {
      ...base,
      displayName: 'int',
      testMatch: ['<rootDir>/**/*.int.test.ts'],
      // 120 s; Jest ignores a per-project `testTimeout`, so the setup file sets it.
      setupFilesAfterEnv: ['<rootDir>/scripts/jest/setup-int.cjs'],
    },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test-e2e/**/*.e2e.test.ts'],
      // 180 s, set by the setup file for the same reason.
      setupFilesAfterEnv: ['<rootDir>/scripts/jest/setup-e2e.cjs'],
    },
  ],
};
