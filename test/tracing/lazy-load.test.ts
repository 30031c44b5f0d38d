import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedAfterImport } from '../support/loaded-modules.js';
import { repoRoot } from '../support/shared-dir.js';

const otel = (loaded: string[]) => loaded.filter((p) => p.includes('/node_modules/@opentelemetry/api/'));

describe('@opentelemetry/api is loaded by a request once the application registered something with it, or by ledger-rx/tracing', () => {
  it('is not loaded by the main entry point', () => {
    const loaded = loadedAfterImport(join(repoRoot, 'dist', 'index.js'));
    expect(loaded.some((p) => p.includes('/node_modules/rxjs/'))).toBe(true); // the check sees CommonJS modules (rxjs: undici is now loaded by createLedgerClient)
    expect(otel(loaded)).toEqual([]);
  });

  it('is loaded by the tracing entry point', () => {
    expect(otel(loadedAfterImport(join(repoRoot, 'dist', 'tracing', 'index.js'))).length).toBeGreaterThan(0);
  });
});
