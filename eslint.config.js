import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'benchmarks/node_modules/**', 'benchmarks/results/**', 'coverage/**', '.tmp/**', 'docs/api/**', 'examples/daml/**', 'examples/.run/**', 'examples/node_modules/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', setImmediate: 'readonly', URL: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly', performance: 'readonly', structuredClone: 'readonly', queueMicrotask: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Named exports only.' }],
    },
  },
  {
    files: ['src/operators/**/*.ts', 'src/filters/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'setTimeout', message: 'Operators use RxJS schedulers, not timers.' }, { name: 'setInterval', message: 'Operators use RxJS schedulers.' }],
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: 'Use scheduler.now().' }],
    },
  },
  // ARCHITECTURE.md's arrows, checked: a folder of src/ may import from the folders listed here and no other
  // (any relative import that leaves it for another folder is refused); `pure` folders import no I/O library
  // either. src/cli and src/index.ts may import everything; src/sandbox has its own rule below.
  ...Object.entries({
    errors: { may: [], pure: true },
    schemas: { may: [], pure: true },
    filters: { may: ['errors', 'schemas'], pure: true },
    updates: { may: ['errors', 'schemas'], pure: true },
    'active-contracts': { may: ['errors', 'schemas', 'updates'], pure: true },
    completions: { may: ['errors', 'schemas', 'updates'], pure: true },
    retry: { may: ['errors'], pure: true },
    streams: { may: ['errors'] },
    tracing: { may: ['errors', 'schemas', 'updates'] },
    client: { may: ['errors', 'schemas', 'filters', 'streams', 'updates', 'active-contracts', 'completions', 'retry', 'tracing'] },
    operators: { may: ['errors', 'schemas', 'updates', 'active-contracts', 'completions', 'retry'], pure: true },
    checkpoints: { may: ['errors', 'schemas', 'operators'] },
    // sinks/export reads the package model of a DAR (its types only: the typed template tables)
    sinks: { may: ['errors', 'schemas', 'updates', 'checkpoints', 'operators'], types: ['daml'] },
    metrics: { may: ['errors', 'schemas', 'updates', 'operators'] },
    daml: { may: ['errors', 'schemas', 'filters', 'operators'] },
  }).flatMap(([folder, { may, types = [], pure = false }]) =>
    [0, 1, 2, 3].map((depth) => ({
      files: [`src/${folder}/${'*/'.repeat(depth)}*.ts`],
      rules: {
        'no-restricted-imports': ['error', {
          patterns: [
            { regex: `^(\\.\\./){${depth + 1}}(?!(${[...may, ...types].join('|')})/)`, message: `src/${folder} may import only from ${may.join(', ') || 'itself'} (ARCHITECTURE.md).` },
            ...(types.length > 0 ? [{ regex: `^(\\.\\./){${depth + 1}}(${types.join('|')})/`, allowTypeImports: true, message: `src/${folder} may import only the types of ${types.join(', ')} (ARCHITECTURE.md).` }] : []),
            ...(pure ? [{ group: ['undici', 'node:*', 'pg', 'ws', 'prom-client', '@nats-io/*', 'rxjs/internal/*'], message: `src/${folder} does no I/O.` }] : []),
          ],
        }],
      },
    })),
  ),
  // The sandbox is an independent implementation of the server (ARCHITECTURE.md): nothing in src/sandbox
  // may import from outside it, so it cannot lean on the library's schemas, errors, client or streams.
  ...['src/sandbox/*.ts', 'src/sandbox/*/*.ts', 'src/sandbox/*/*/*.ts'].map((files, depth) => ({
    files: [files],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: [`${'../'.repeat(depth + 1)}**`, 'ledger-rx', 'ledger-rx/*'], message: 'The sandbox is independent of the library: keep it inside src/sandbox.' }] }],
    },
  })),
  {
    // Tool configuration files are loaded through their default export.
    files: ['eslint.config.js', 'vitest.config.ts', 'benchmarks/**/*.config.*'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
