// ESLint 9 flat config: typescript-eslint's type-aware recommended rules, no import
// cycles, no deep imports across packages. Run with --max-warnings=0 (`pnpm lint`),
// so every rule here is either an error or off.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores([
    '**/node_modules/**',
    'libs/proto/src/gen/**',
    '.data/**',
    'coverage/**',
    '.tmp/**',
    'dist/**',
    '**/*.js',
    '**/*.cjs',
    '**/*.mjs',
  ]),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js', '.mjs', '.cjs'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.node'],
          // NodeNext sources import './x.js' for './x.ts'.
          extensionAlias: { '.js': ['.ts', '.js'] },
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@hearth/*/*'],
              message: 'Import a workspace package through its entry point only (no deep imports).',
            },
          ],
        },
      ],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
      // NestJS hosts and jest matchers pass methods around on purpose.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Migrations are frozen in time and take `Kysely<any>`, as kysely recommends:
    // they must not depend on today's schema types.
    files: ['**/migrations/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // Tests: jest's asymmetric matchers are typed `any`.
    files: ['**/*.test.ts', 'test-e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      // Tests read JSON bodies and ad-hoc rows and assert them field by field.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
