import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedAfterImport } from '../support/loaded-modules.js';
import { repoRoot } from '../support/shared-dir.js';

describe('prom-client is loaded only by ledger-rx/metrics', () => {
  it('is not loaded by the main entry point', () => {
    const loaded = loadedAfterImport(join(repoRoot, 'dist', 'index.js'));
    expect(loaded.some((p) => p.includes('/node_modules/rxjs/'))).toBe(true); // the check sees CommonJS modules
    expect(loaded.filter((p) => p.includes('/node_modules/prom-client/'))).toEqual([]);
  });

  it('is loaded by the metrics entry point', () => {
    expect(loadedAfterImport(join(repoRoot, 'dist', 'metrics', 'index.js')).some((p) => p.includes('/node_modules/prom-client/'))).toBe(true);
  });
});
