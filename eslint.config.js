import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'benchmarks/node_modules/**', 'benchmarks/results/**', 'coverage/**', '.tmp/**'] },
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
      'no-restricted-imports': ['error', { patterns: [{ group: ['undici', 'node:*', 'pg', 'rxjs/internal/*'], message: 'Operators are pure RxJS: no I/O.' }] }],
    },
  },
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
