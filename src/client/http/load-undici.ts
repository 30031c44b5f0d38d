import { createRequire } from 'node:module';
import type * as UndiciModule from 'undici';
import type { Dispatcher } from 'undici';

/** What the HTTP transport uses of undici. */
export interface UndiciParts {
  /** undici's `Agent` (the client's own connection pool). */
  readonly Agent: typeof UndiciModule.Agent;
  /**
   * undici's `Dispatcher#request`, called with the dispatcher as `this`: any dispatcher, the client's `Agent`
   * or the application's. `undici.request(url, { dispatcher })` is this call with `origin` and `path` taken
   * from the URL.
   */
  readonly request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
}

let loaded: UndiciParts | undefined;

/**
 * undici, loaded on first use rather than by `import 'ledger-rx'`: `createLedgerClient` loads it for its
 * `Agent`, or the first request when the application passes its own dispatcher. Only the two modules the
 * transport uses are required, `lib/dispatcher/agent.js` and `lib/api/api-request.js` (25 files, not the
 * 110 of the whole package: its fetch, WebSocket, cache and mocks); they are the very modules undici's
 * entry point exports (`undici.Agent`, `Dispatcher.prototype.request`, a test checks it), and undici is
 * CommonJS, so they are the ones an `import 'undici'` of the application gets: one instance. If a later
 * undici moves them, the whole package is loaded instead. Throws only if undici is missing.
 */
export function loadUndici(): UndiciParts {
  if (loaded !== undefined) return loaded;
  const require = createRequire(import.meta.url);
  try {
    const parts = { Agent: require('undici/lib/dispatcher/agent.js') as unknown, request: require('undici/lib/api/api-request.js') as unknown };
    if (typeof parts.Agent !== 'function' || typeof parts.request !== 'function') throw new TypeError('undici: unexpected module layout');
    loaded = parts as UndiciParts;
  } catch {
    const undici = require('undici') as typeof UndiciModule;
    loaded = { Agent: undici.Agent, request: undici.Dispatcher.prototype.request as UndiciParts['request'] };
  }
  return loaded;
}
