import { createRequire } from 'node:module';
import type * as UndiciModule from 'undici';

type Undici = typeof UndiciModule;

let loaded: Undici | undefined;

/**
 * undici, loaded on first use rather than by `import 'ledger-rx'` (about a quarter of the import's time):
 * `createLedgerClient` loads it for its `Agent`, or the first request when the application passes its own
 * dispatcher. undici is a CommonJS package, so `require` returns the very module an `import 'undici'` of
 * the application gets (one instance, one global dispatcher). Loading throws only if undici is missing.
 */
export function loadUndici(): Undici {
  loaded ??= createRequire(import.meta.url)('undici') as Undici;
  return loaded;
}
