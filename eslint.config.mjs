// Lint rules, including the layer rules: src/core never imports vscode; src/webview never imports node or vscode.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noVscode = { name: 'vscode', message: 'src/core is pure TypeScript: take VS Code collaborators as parameters.' };

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'test-results/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      // Terminal and tool output is full of control bytes; matching them is the point.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [{ group: ['**/extension/**', '**/webview/**'], message: 'src/core depends on nothing above it.' }],
        },
      ],
    },
  },
  {
    // esbuild escapes non-ASCII in strings but not in regular expressions, and one such character makes
    // V8 hold a whole node bundle as UTF-16 (esbuild.mjs checks the production bundles too).
    files: ['src/**/*.ts'],
    ignores: ['src/webview/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[regex.pattern=/[^\\x00-\\x7f]/]',
          message: 'Write non-ASCII characters in a regular expression as \\uXXXX (node bundles stay ASCII).',
        },
      ],
    },
  },
  {
    files: ['src/webview/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'The webview talks to the host through src/protocol only.' }],
          patterns: [{ group: ['node:*'], message: 'The webview runs in a browser.' }],
        },
      ],
    },
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode], patterns: ['node:*'] }] },
  },
);
