// ESLint 9 flat config: typescript-eslint's type-aware recommended rules, no import
// cycles, no deep imports across packages. Run with --max-warnings=0 (`pnpm lint`),
// so every rule here is either an error or off.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { readdirSync } from 'node:fs';

/** Every service folder: each is a boundary of its own. */
const SERVICES = readdirSync(new URL('./services', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

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
    // Service boundaries (ARCHITECTURE.md): a service reaches another only through
    // proto/ (events and the generated query clients) and libs/. Neither a package
    // import nor a relative path into another service's folder is allowed, and libs/
    // import no service at all. Scripts and test-e2e compose services on purpose.
    files: ['services/**/*.ts', 'libs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@hearth/*/*'],
              message: 'Import a workspace package through its entry point only (no deep imports).',
            },
            {
              group: ['@hearth/svc-*'],
              message: 'No service imports another service: share contracts through proto/ and code through libs/.',
            },
          ],
        },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...SERVICES.map((name) => ({
              target: `./services/${name}`,
              from: './services',
              except: [`./${name}`],
              message: 'No service imports another service: share contracts through proto/ and code through libs/.',
            })),
            { target: './libs', from: './services', message: 'libs/ must not depend on a service.' },
          ],
        },
      ],
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
