// Writes dist/assets/pglite-data-template.tar.gz: the data directory of a new, empty PGlite database (what
// its initdb makes), and beside it pglite-data-template.json with the PGlite version that made it. The
// embedded store opens a new data directory from it instead of running initdb (openEmbeddedPostgres), whose
// second WebAssembly instance made a new store's process peak at ~0.9 GB (docs/ingest.md, "Memory of the
// embedded store"). Run by scripts/build.mjs in a process of its own; skipped (no template, the embedded
// store then runs initdb) when PGlite is not installed.
//
//     node scripts/pglite-data-template.mjs <dist>
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const dist = process.argv[2];
if (dist === undefined) throw new Error('usage: node scripts/pglite-data-template.mjs <dist>');
const require = createRequire(import.meta.url);
let entry;
try {
  entry = require.resolve('@electric-sql/pglite');
} catch {
  console.error('build: @electric-sql/pglite is not installed; no data-directory template for the embedded store');
  process.exit(0);
}
let dir = dirname(entry);
while (!readPackageName(dir)) dir = dirname(dir);
const version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
const { PGlite } = await import('@electric-sql/pglite');
const db = await PGlite.create('memory://');
const dump = await db.dumpDataDir('gzip');
await db.close();
mkdirSync(join(dist, 'assets'), { recursive: true });
writeFileSync(join(dist, 'assets', 'pglite-data-template.tar.gz'), Buffer.from(await dump.arrayBuffer()));
writeFileSync(join(dist, 'assets', 'pglite-data-template.json'), `${JSON.stringify({ pglite: version })}\n`);

function readPackageName(d) {
  try {
    return JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')).name === '@electric-sql/pglite';
  } catch {
    return false;
  }
}
