// Lint, with the layering of DESIGN.md made mechanical (VS Code's folder rules): a renderer file
// importing Node or Electron, shared/ importing either side, or a host file importing 'electron'
// fails lint instead of review.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'child_process',
  'os',
  'net',
  'http',
  'https',
  'crypto',
  'worker_threads',
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      '.scratch/**',
      'build/landlock/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    ignores: ['renderer/vite.config.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...nodeBuiltins, 'electron', '**/electron/**'],
              message: 'the renderer reaches the host only through shared/protocol',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [...nodeBuiltins, 'electron', 'react', '**/electron/**', '**/renderer/**'],
              message: 'shared/ is pure: no Node, Electron, React or either side',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/main.ts', 'electron/preload.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: "only electron/main.ts and electron/preload.ts import 'electron'",
            },
          ],
          patterns: [{ group: ['**/renderer/**'], message: 'the host never imports the renderer' }],
        },
      ],
    },
  },
);
