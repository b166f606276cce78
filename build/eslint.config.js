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

// The host's rule against importing the renderer or 'electron' (below), shared by every host file.
const hostImportRules = {
  paths: [
    {
      name: 'electron',
      message: "only electron/main.ts and electron/preload.ts import 'electron'",
    },
  ],
  patterns: [{ group: ['**/renderer/**'], message: 'the host never imports the renderer' }],
};

// Each program the host starts has one owner, so the program it runs is chosen in one place: a
// git planted first on PATH or in node_modules/.bin once slipped in through a second git caller
// (issue #25 part 8). Only these files start processes; any other host file that wants to run one
// goes through its owner (git: electron/host/projects/host-git.ts).
const programOwners = [
  'electron/host/projects/host-git.ts', // git, resolved at start from unplantable dirs
  'electron/host/sandbox/launcher.ts', // the sandbox launcher, by its absolute install path
  'electron/host/shells/pipe-child.ts', // shells (the user's command, confined)
  'electron/host/shells/launched-pty-child.ts',
  'electron/host/hooks/run-hook.ts', // hooks, through /bin/sh
  'electron/host/lsp/server-process.ts', // language servers, resolved by lsp/resolve-command.ts
  'electron/host/system/browser-opener.ts', // the user's browser ($BROWSER, xdg-open)
  'electron/host/remote/ssh-transport.ts', // the OpenSSH client, resolved like git
  'electron/host/remote/remote-relay.ts', // on the remote: its own remote part's daemon (this node, this bundle)
  'electron/host/remote/remote-mcp-server.ts', // on the remote: a trusted project's MCP server, confined
  'electron/host/acp/client/agent-process.ts', // external ACP agents, confined (agents.NAME)
];
const childProcessImports = ['node:child_process', 'child_process'].map((name) => ({
  name,
  message:
    'only the program owners listed in build/eslint.config.js start processes; run git through electron/host/projects/host-git.ts',
}));

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
        { ...hostImportRules, paths: [...hostImportRules.paths, ...childProcessImports] },
      ],
      // Not even an owner runs git by name: PATH decides which one that is.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[arguments.0.value=/^git$/][callee.name=/^(spawn|spawnSync|execFile|execFileSync|exec|execSync|fork)$/], CallExpression[arguments.0.value=/^git$/][callee.property.name=/^(spawn|spawnSync|execFile|execFileSync|exec|execSync|fork)$/]',
          message:
            'git by name runs whichever git comes first on PATH: use runHostGit (electron/host/projects/host-git.ts)',
        },
      ],
    },
  },
  {
    files: programOwners,
    rules: { 'no-restricted-imports': ['error', hostImportRules] },
  },
);
