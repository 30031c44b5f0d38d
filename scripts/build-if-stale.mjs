// Builds dist/ (scripts/build.mjs) only when it is missing or older than the sources (dist-freshness.mjs);
// otherwise does nothing and prints nothing. Its messages and the build's output go to stderr, so that
// the standard output of whatever runs after it (`npm start | jq`) is only that command's.
//
//     node scripts/build-if-stale.mjs        (npm's prepack; scripts/start.mjs calls buildIfStale)
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { root, whyStale } from './dist-freshness.mjs';

/** Builds when needed; throws when the build fails. */
export function buildIfStale() {
  const why = whyStale();
  if (why === undefined) return;
  process.stderr.write(`ledger-rx: building dist/ (${why})\n`);
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new Error(`the build failed (exit ${result.status ?? result.signal})`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    buildIfStale();
  } catch (error) {
    process.stderr.write(`ledger-rx: ${error.message}\n`);
    process.exit(1);
  }
}
