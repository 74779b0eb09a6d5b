import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import layers from './tools/eslint/import-direction.js';

// packages/e2e (issue 20): scenarios wait for what a person waits for, never a fixed time, and find
// things only through the page helpers of packages/e2e/support (README "Write a scenario").
const noFixedSleep = {
  selector: "MemberExpression[property.name='waitForTimeout']",
  message: 'No fixed sleeps in e2e tests: wait for what the person waits for (web-first assertions, toHaveURL, expect.poll).',
};
const noSelectorsInSpecs = {
  selector:
    "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(getBy(Role|Label|Text|Placeholder|TestId|Title|AltText)|locator|frameLocator)$/]",
  message: 'Selectors belong in the page helpers of packages/e2e/support (goTo*, fill*, click*, expect*), not in a spec.',
};

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/test-results/**', '**/playwright-report/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { layers },
    rules: {
      'layers/import-direction': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // Issue 35: no closure over 100 lines in the server — a page is a step file, a service is composed
    // of small factories (CONVENTIONS "Don't copy": registerAccountPages was one 412-line closure).
    files: ['packages/server/src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  {
    files: ['packages/e2e/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', noFixedSleep] },
  },
  {
    // The later block's options replace the earlier one's for these files: both restrictions are listed.
    files: ['packages/e2e/tests/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', noFixedSleep, noSelectorsInSpecs] },
  },
  {
    files: ['packages/console/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
