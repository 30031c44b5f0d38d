// Whether dist/ is built from the sources as they are now: every file package.json publishes (`exports` and
// `bin`) exists and the oldest of them is newer than the newest input of the build (src/, the build script,
// package.json, the tsconfig files). Used by `npm start` and `npm pack` (prepack) to build only when needed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const root = dirname(dirname(fileURLToPath(import.meta.url)));

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted source file changes its folder
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** The files of dist/ that package.json names (`exports` and `bin`). */
function publishedFiles(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const targets = Object.values(pkg.exports).flatMap((e) => (typeof e === 'object' ? Object.values(e) : [e]));
  return [...targets, ...Object.values(pkg.bin ?? {})].filter((f) => typeof f === 'string' && f.startsWith('./dist/'));
}

/** `undefined` when `dir`'s dist/ is up to date, otherwise why it is not (for the message). */
export function whyStale(dir = root) {
  let oldestOutput = Infinity;
  for (const file of publishedFiles(dir)) {
    try {
      oldestOutput = Math.min(oldestOutput, statSync(join(dir, file)).mtimeMs);
    } catch {
      return `${file.slice(2)} is missing`;
    }
  }
  const inputs = ['src', 'scripts/build.mjs', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];
  const newestInput = Math.max(...inputs.map((i) => newestMtime(join(dir, i))));
  return newestInput > oldestOutput ? 'the sources are newer than dist/' : undefined;
}
