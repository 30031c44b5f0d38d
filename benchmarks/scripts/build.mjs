// Compiles the benchmarks (TypeScript) with this folder's own TypeScript, together with the server launchers
// they share with the tests (../scripts/free-port.ts, ../scripts/nats-server.ts): the output mirrors the
// repository (node_modules/.bench-out/{benchmarks,scripts}/...), and node_modules/.bench-build is a link to
// .bench-out/benchmarks, so the compiled benchmarks are run as node_modules/.bench-build/<name>/<name>.bench.js.
//
// The library is imported as `ledger-rx`, which resolves through the symlink node_modules/ledger-rx -> ../..
// (made here) to the repository's package.json exports, i.e. the built ../dist/. Run the root
// `npm run build` first (the root `npm run bench` does).
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const nodeModules = join(here, 'node_modules');
if (!existsSync(join(nodeModules, 'typescript'))) {
  console.error('benchmarks: dependencies missing; run `npm --prefix benchmarks ci` first');
  process.exit(1);
}
if (!existsSync(join(here, '..', 'dist', 'index.js'))) {
  console.error('benchmarks: ../dist is missing; run `npm run build` at the repository root first');
  process.exit(1);
}
const link = join(nodeModules, 'ledger-rx');
let linked = false;
try {
  linked = lstatSync(link).isSymbolicLink();
} catch {
  linked = false;
}
if (!linked) {
  rmSync(link, { recursive: true, force: true });
  mkdirSync(nodeModules, { recursive: true });
  symlinkSync('../..', link, 'dir'); // node_modules/ledger-rx -> the repository root
}
const out = join(nodeModules, '.bench-out');
const build = join(nodeModules, '.bench-build');
rmSync(out, { recursive: true, force: true });
rmSync(build, { recursive: true, force: true });
const tsc = createRequire(join(here, 'package.json')).resolve('typescript/bin/tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.json')], { stdio: 'inherit', cwd: here });
} catch {
  console.error('benchmarks: TypeScript errors (above)');
  process.exit(1);
}
symlinkSync(join('.bench-out', 'benchmarks'), build, 'dir'); // node_modules/.bench-build -> .bench-out/benchmarks
