import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { featureFaceZones, webTierZones } from './apps/web/boundaries.js';
import { serverTierZones } from './apps/server/boundaries.js';
import { builtinModules } from 'node:module';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'artifacts/**',
      'apps/server/drizzle/**',
      '.scratch/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // The domain core never reads the clock or a random source: time and ids are passed
    // in, so its rules (and its tests) are deterministic.
    files: ['packages/domain/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Pass the time in (`now: number`).' },
        { object: 'Math', property: 'random', message: 'Pass a seeded source in (market/prng).' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Pass the time in: `new Date(now)`.',
        },
        {
          selector: "CallExpression[callee.name='Date']",
          message: 'Date() reads the clock; pass the time in.',
        },
      ],
      'no-restricted-globals': ['error', 'process', 'Buffer', 'crypto', 'performance'],
    },
  },
  {
    // The domain core is pure: it imports nothing from the apps and does no I/O. Tests may
    // read fixtures from disk.
    files: ['packages/domain/**/*.ts'],
    ignores: ['packages/domain/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: builtinModules,
          patterns: ['@ct/server', '@ct/web', 'node:*', 'react', 'fastify', '**/apps/**'],
        },
      ],
    },
  },
  {
    // Journeys and benchmarks drive the product as a process (or a package's public entry),
    // never through the apps' source files.
    files: ['e2e/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/apps/server/**', '**/apps/web/**'] }],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@ct/web', '**/apps/web/**'] }] },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': 'off',
      'no-restricted-imports': ['error', { patterns: ['@ct/server', '**/apps/server/**'] }],
    },
  },
  {
    // No import cycles in the web app: between modules, and between folders (tiers); a
    // feature is imported from outside only through its public face (index.ts, lazy.ts).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/testSupport.ts', 'apps/web/src/test/**'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...webTierZones(`${import.meta.dirname}/apps/web/src`),
            ...featureFaceZones(`${import.meta.dirname}/apps/web/src`),
          ],
        },
      ],
    },
  },
  {
    // The server in tiers, no cycles: db/http below the modules, the modules below config,
    // config below the app and the entry points (apps/server/boundaries.js). Tests and their
    // support are exempt; production code never imports them.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/server/src/test/**', 'apps/server/src/hardening/**'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        { zones: serverTierZones(`${import.meta.dirname}/apps/server/src`) },
      ],
    },
  },
  prettier,
);
