// `npm start`: the live demo the README promises, `ledger-rx tail --sandbox` (the embedded sandbox with a
// workload; one line per update on a terminal, NDJSON in a pipe). Builds dist/ first only when the sources
// are newer (build-if-stale.mjs), with the build's output on stderr, then runs the CLI in this process: no
// second Node start. Arguments after `--` go to `tail` (`npm start -- --to end`). npm's own banner
// (`> ledger-rx@0.1.0 start`) goes to stderr because of the repository's .npmrc (`json=true`), so the
// standard output of `npm start | jq` is NDJSON only.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';
import { root } from './dist-freshness.mjs';

try {
  buildIfStale();
} catch (error) {
  process.stderr.write(`ledger-rx: ${error.message}\n`);
  process.exit(1);
}
const main = join(root, 'dist', 'cli', 'main.js');
process.argv = [process.argv[0], main, 'tail', '--sandbox', ...process.argv.slice(2)];
await import(pathToFileURL(main).href);
