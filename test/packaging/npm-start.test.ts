import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { whyStale } from '../../scripts/dist-freshness.mjs';
import { repoRoot } from '../support/shared-dir.js';

/**
 * `npm start` and `npm pack` in a clone (README, "In a clone of this repository"): both build dist/ only when
 * it is missing or older than the sources (scripts/dist-freshness.mjs), and `npm start` in a pipe writes
 * NDJSON only: npm's banner goes to stderr (.npmrc), the build's output too.
 */
const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const dir = mkdtempSync(join(tmpdir(), 'ledger-rx-fresh-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `file` under the fake clone with the modification time `seconds`. */
function put(file: string, seconds: number): void {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), file.endsWith('.json') && file.startsWith('package') ? JSON.stringify({ exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } }, bin: { x: './dist/cli/main.js' } }) : '{}');
  utimesSync(join(dir, file), seconds, seconds);
}

describe('the build when needed', () => {
  it('is stale without dist/, fresh once every published file is newer than every input, stale again after an edit', () => {
    for (const input of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs', 'src/index.ts', 'src/cli/main.ts']) put(input, 1_000);
    utimesSync(join(dir, 'src'), 1_000, 1_000);
    utimesSync(join(dir, 'src', 'cli'), 1_000, 1_000);
    expect(whyStale(dir)).toBe('dist/index.d.ts is missing');
    put('dist/index.d.ts', 2_000);
    put('dist/index.js', 2_000);
    expect(whyStale(dir)).toBe('dist/cli/main.js is missing');
    put('dist/cli/main.js', 2_000);
    expect(whyStale(dir)).toBeUndefined();
    put('src/cli/main.ts', 3_000); // an edit deep in src/
    expect(whyStale(dir)).toBe('the sources are newer than dist/');
    put('dist/cli/main.js', 4_000);
    expect(whyStale(dir)).toBe('the sources are newer than dist/'); // the other outputs are still older
    put('dist/index.js', 4_000);
    put('dist/index.d.ts', 4_000);
    expect(whyStale(dir)).toBeUndefined();
    put('tsconfig.build.json', 5_000);
    expect(whyStale(dir)).toBe('the sources are newer than dist/');
  });

  it('is what npm start and npm pack run (no prestart: npm would print its banner and rebuild every time)', () => {
    expect(scripts['start']).toBe('node scripts/start.mjs');
    expect(scripts['prepack']).toBe('node scripts/build-if-stale.mjs');
    expect(scripts['prestart']).toBeUndefined();
  });
});

describe('npm start in a pipe', () => {
  it('writes NDJSON only: every line of stdout is an update, npm banner and logs on stderr', { timeout: 60_000 }, async () => {
    // the repository's own dist must be fresh, or npm start would rebuild it under the other tests' feet
    expect(whyStale(), 'run `npm run build` first').toBeUndefined();
    const { stdout, stderr } = await promisify(execFile)('npm', ['start', '--', '--to', 'end'], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const lines = stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(Object.keys(JSON.parse(line) as object)).toEqual(['update']);
    expect(stderr).toContain('> ledger-rx@'); // npm's banner, moved to stderr by .npmrc
    expect(stderr).not.toContain('building dist/');
  });
});
