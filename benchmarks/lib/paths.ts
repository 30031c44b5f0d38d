/** Where things are: the benchmarks folder, the repository root, the built CLI, the data cache. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findBenchRoot(): string {
  // The compiled files live in benchmarks/node_modules/.bench-build/...: walk up to our package.json.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'ledger-rx-benchmarks') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the benchmarks folder (package ledger-rx-benchmarks)');
    dir = parent;
  }
}

/** The `benchmarks/` folder. */
export const benchRoot = findBenchRoot();
/** The repository root. */
export const repoRoot = dirname(benchRoot);
/** The built `ledger-rx` CLI (root `npm run build`). */
export const cliMain = join(repoRoot, 'dist', 'cli', 'main.js');
/** Generated fixtures and scratch files (git-ignored). */
export const dataDir = join(benchRoot, '.data');
/** The compiled benchmark files. */
export const buildDir = join(benchRoot, 'node_modules', '.bench-build');
