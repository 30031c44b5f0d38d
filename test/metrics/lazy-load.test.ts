import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-dir.js';

/** The CommonJS modules a fresh process has loaded after importing `entry` (prom-client is CommonJS). */
function loadedAfterImport(entry: string): string[] {
  const script = `
    await import(${JSON.stringify(entry)});
    const { createRequire } = await import('node:module');
    process.stdout.write(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' })) as string[];
}

describe('prom-client is loaded only by ledger-rx/metrics', () => {
  it('is not loaded by the main entry point', () => {
    const loaded = loadedAfterImport(join(repoRoot, 'dist', 'index.js'));
    expect(loaded.some((p) => p.includes('/node_modules/undici/'))).toBe(true); // the check sees CommonJS modules
    expect(loaded.filter((p) => p.includes('/node_modules/prom-client/'))).toEqual([]);
  });

  it('is loaded by the metrics entry point', () => {
    expect(loadedAfterImport(join(repoRoot, 'dist', 'metrics', 'index.js')).some((p) => p.includes('/node_modules/prom-client/'))).toBe(true);
  });
});
