// Compiles the decode benchmark (and the sources it imports) with the project's TypeScript into a temporary
// directory, then runs it. Node 20 cannot run TypeScript itself, and no TS loader is installed.
//
//   node benchmarks/decode/run.mjs [--mb=200] [--runs=3] [--variants=a,b,c,d,e,scanner,oversized]
//
// Arguments are passed to decode.bench.ts. The compiled files go to $TMPDIR/ledger-rx-bench-decode, next to a
// symlink to this repository's node_modules so that imports resolve; the generated body is cached in $TMPDIR.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = join(tmpdir(), 'ledger-rx-bench-decode');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
symlinkSync(join(root, 'node_modules'), join(out, 'node_modules'), 'dir');
writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');

const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [
  tsc,
  '--outDir', out,
  '--rootDir', root,
  '--module', 'nodenext',
  '--moduleResolution', 'nodenext',
  '--target', 'es2023',
  '--strict',
  '--noUncheckedIndexedAccess',
  '--exactOptionalPropertyTypes',
  '--skipLibCheck',
  '--types', 'node',
  join(root, 'benchmarks/decode/decode.bench.ts'),
], { stdio: 'inherit', cwd: root });

execFileSync(process.execPath, [join(out, 'benchmarks/decode/decode.bench.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
