// Builds dist/: the declarations with tsc (which also type-checks src), the JavaScript with Rollup (esbuild
// strips the types of each file).
//
// The JavaScript is bundled. What `import 'ledger-rx'` reaches is three chunks (see `manualChunks`), and every
// entry point of package.json (`exports` and `bin`) is a file that takes what it shares with the others from
// chunks: a few files load instead of ~200 small modules, which was most of ledger-rx's own part of
// `import 'ledger-rx'` (see benchmarks/start-up). Shared code exists once, so a class (the error
// hierarchy) is one class whichever entry point a user imports it from. What is imported lazily
// (`await import('./x.js')`: the CLI's commands, the sandbox's server...) stays a chunk of its own, loaded
// when it is used. No package is bundled: dependencies and peers stay imports, so the application's rxjs
// and zod are the very modules ledger-rx uses. Every file has a source map (with the sources in it).
//
//     node scripts/build.mjs          (npm run build)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { rollup } from 'rollup';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const src = join(root, 'src');
const dist = join(root, 'dist');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** `./dist/a/b.js` → the entry `a/b`, built from `src/a/b.ts`. */
function entryOf(distFile) {
  const match = /^\.\/dist\/(.+)\.js$/.exec(distFile);
  if (!match) throw new Error(`build: ${distFile} is not a file under ./dist`);
  return [match[1], join(src, `${match[1]}.ts`)];
}
const published = Object.values(pkg.exports).flatMap((e) => (typeof e === 'object' && typeof e.default === 'string' ? [e.default] : []));
const input = Object.fromEntries([...published, ...Object.values(pkg.bin)].map(entryOf));
const rootEntry = join(src, 'index.ts');

/** The sources are TypeScript imported with `.js` extensions (NodeNext): resolved to the `.ts` file, types stripped by esbuild. */
const typescript = {
  name: 'typescript',
  resolveId(source, importer) {
    if (importer === undefined || !source.startsWith('.')) return null;
    const file = resolve(dirname(importer), source.replace(/\.js$/, '.ts'));
    return existsSync(file) ? file : null;
  },
  async transform(code, id) {
    if (!id.endsWith('.ts')) return null;
    const out = await transform(code, { loader: 'ts', format: 'esm', target: 'node20.18', sourcemap: 'external', sourcefile: id });
    return { code: out.code, map: out.map };
  },
};

let rootGraph;
/**
 * Rollup's `manualChunks`: the modules `import 'ledger-rx'` reaches through static imports go into three
 * chunks, so that the root import loads four files and an entry or a lazy part that needs less loads less:
 * `errors` (the error hierarchy, no dependency: what the CLI needs to print an error), `wire` (the zod schemas
 * and the UpdateFormat builder: `ledger-rx/filters` needs only these and zod) and `core` (the rest: the client,
 * the streams, the operators; rxjs). Every other module is placed by Rollup (shared by the same entries, one
 * chunk).
 */
function manualChunks(id, { getModuleInfo }) {
  if (rootGraph === undefined) {
    rootGraph = new Set();
    const visit = (m) => {
      if (rootGraph.has(m)) return;
      rootGraph.add(m);
      for (const next of getModuleInfo(m)?.importedIds ?? []) if (!getModuleInfo(next)?.isExternal) visit(next);
    };
    visit(rootEntry);
  }
  if (!rootGraph.has(id)) return undefined;
  const folder = id.slice(src.length + 1).split(/[\\/]/)[0];
  return folder === 'errors' ? 'errors' : folder === 'schemas' || folder === 'filters' ? 'wire' : 'core';
}

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' }); // declarations only

const bundle = await rollup({
  input,
  external: (id) => !id.startsWith('.') && !isAbsolute(id),
  plugins: [typescript],
  onwarn(warning, warn) {
    if (warning.code === 'CIRCULAR_DEPENDENCY') return;
    warn(warning);
    process.exitCode = 1;
  },
});
await bundle.write({
  dir: dist,
  format: 'esm',
  entryFileNames: '[name].js',
  chunkFileNames: 'chunks/[name]-[hash].js',
  manualChunks,
  sourcemap: true,
  generatedCode: 'es2015',
});
await bundle.close();
// the embedded store's template of a new data directory (see scripts/pglite-data-template.mjs)
execFileSync(process.execPath, [join(root, 'scripts', 'pglite-data-template.mjs'), dist], { cwd: root, stdio: 'inherit' });
