import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/shared-dir.js';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Tests that spawn the CLI run the built `dist/`. `npm test` builds first (pretest); when vitest is run
 * directly, this rebuilds `dist/` (`scripts/build.mjs`) if any source file is newer than it.
 */
export function setup(): void {
  let built = 0;
  try {
    built = statSync(join(repoRoot, 'dist', 'cli', 'main.js')).mtimeMs;
  } catch {
    built = 0;
  }
  if (newestMtime(join(repoRoot, 'src')) > built) {
    execFileSync(process.execPath, [join(repoRoot, 'scripts', 'build.mjs')], { cwd: repoRoot, stdio: 'inherit' });
  }
}
