import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { publint } from 'publint';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-dir.js';

/**
 * The published package: `npm pack` (of the built dist), installed into an empty folder with its
 * dependencies (from npm's cache, which `npm ci` filled), imported through every entry of the exports map,
 * and its bin run, with its peers (rxjs, zod) installed beside it as an application would. Catches a broken
 * exports map, a file missing from `files`, or a dependency that is only a devDependency. The installed
 * declarations are compiled as a TypeScript application would (strict, `skipLibCheck: false`) with only what
 * npm installs for it plus `@types/node` and the optional peers, and the package passes publint and
 * arethetypeswrong.
 */
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
/** Optional peers are what an application adds for the entry that needs them (e.g. `@opentelemetry/api`). */
const optionalPeers = Object.entries(pkg.peerDependenciesMeta ?? {}).filter(([, m]) => m.optional === true).map(([name]) => `${name}@${pkg.peerDependencies[name] ?? '*'}`);
let dir: string;
let tarball: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-rx-pack-'));
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  tarball = join(dir, (JSON.parse(out) as { filename: string }[])[0]?.filename as string);
  const app = join(dir, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', type: 'module', private: true }));
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-save', tarball, 'rxjs@^7.8.0', 'zod@^4.6.7', '@types/node@^20.19.0', ...optionalPeers], { cwd: app, stdio: 'ignore' });
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm pack', () => {
  it('ships dist with declarations, and nothing from src or test', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(listing).toContain('package/dist/index.js');
    expect(listing).toContain('package/dist/index.d.ts');
    expect(listing).toContain('package/dist/cli/main.js');
    expect(listing).toContain('package/dist/index.js.map'); // the bundle's source maps, with the sources in them
    expect(listing.filter((f) => f.startsWith('package/src/') || f.startsWith('package/test/'))).toEqual([]);
  });

  it('installs into an empty folder and imports through every entry of the exports map', () => {
    const app = join(dir, 'app');
    writeFileSync(
      join(app, 'check.mjs'),
      `
      import * as root from 'ledger-rx';
      import * as filters from 'ledger-rx/filters';
      import * as schemas from 'ledger-rx/schemas';
      import * as operators from 'ledger-rx/operators';
      import * as sandboxApi from 'ledger-rx/sandbox';
      import * as metricsApi from 'ledger-rx/metrics';
      import * as sinks from 'ledger-rx/sinks';
      import * as postgres from 'ledger-rx/postgres';
      import * as jetstream from 'ledger-rx/jetstream';
      import pkg from 'ledger-rx/package.json' with { type: 'json' };
      const sandbox = await sandboxApi.startSandbox({ seed: 3 });
      const client = root.createLedgerClient({ baseUrl: sandbox.url });
      const end = await client.ledgerEnd();
      const format = filters.updateFormat().transactions((t) => t.anyParty()).build();
      const { lastValueFrom, toArray } = await import('rxjs');
      const { Registry } = await import('prom-client');
      const registry = new Registry();
      const metrics = metricsApi.collectMetrics(registry);
      const got = await lastValueFrom(operators.tailUpdates(client, { updateFormat: format, endInclusive: end.offset, onStatus: metrics.onStatus }).pipe(toArray()));
      const counted = (await registry.getSingleMetric('ledger_rx_elements_total').get()).values.reduce((n, v) => n + v.value, 0);
      await client.close();
      await sandbox.close();
      const { z } = await import('zod');
      const schema = schemas.GetLedgerEndResponse.safeParse({ offset: 3 }).success && schemas.GetLedgerEndResponse instanceof z.ZodType && !('GetLedgerEndResponse' in root);
      let oneClass = false; // an error raised by code of one entry point is an instance of the class another one exports
      try { filters.updateFormat().transactions((t) => t.parties('')).build(); } catch (e) { oneClass = e instanceof root.InvalidArgumentError && e instanceof root.LedgerRxError; }
      process.stdout.write(JSON.stringify({ name: pkg.name, end: end.offset, got: got.length, counted, errors: typeof root.LedgerApiError, oneClass, sink: [typeof sinks.BatchCommitter, typeof postgres.PostgresSink, typeof jetstream.JetStreamSink].join(), schema, internal: typeof root.rememberElementText }));
      `,
    );
    const result = JSON.parse(execFileSync(process.execPath, ['check.mjs'], { cwd: app, encoding: 'utf8' })) as { name: string; end: number; got: number; counted: number; errors: string; oneClass: boolean; sink: string; schema: boolean; internal: string };
    expect(result.name).toBe('ledger-rx');
    expect(result.end).toBeGreaterThan(0);
    expect(result.got).toBeGreaterThan(0);
    expect(result.counted).toBe(result.got); // ledger-rx/metrics counted each element through prom-client
    expect(result.errors).toBe('function');
    expect(result.oneClass).toBe(true); // the error classes exist once in the bundle, whichever entry point uses them
    expect(result.schema).toBe(true); // the schemas (in ledger-rx/schemas, not the root) are built with the application's zod (a peer)
    expect(result.internal).toBe('undefined');
    expect(result.sink).toBe('function,function,function');
  });

  it('installs the ledger-rx bin', () => {
    const app = join(dir, 'app');
    expect(readdirSync(join(app, 'node_modules', '.bin'))).toContain('ledger-rx');
    const help = execFileSync(join(app, 'node_modules', '.bin', 'ledger-rx'), ['--help'], { encoding: 'utf8' });
    expect(help).toMatch(/^Usage: ledger-rx/);
  });

  /** The module names a declaration file imports (`import … from`, `export … from`, `import("…")` types). */
  const importsOf = (f: ts.SourceFile) => ts.preProcessFile(f.text, true, true).importedFiles.map((i) => i.fileName);

  it('compiles against its declarations without skipLibCheck (nodenext and bundler), each naming only installed packages', () => {
    const app = join(dir, 'app');
    const entries = Object.keys(pkg.exports).filter((e) => e !== './package.json');
    const files = entries.map((entry) => {
      const specifier = entry === '.' ? 'ledger-rx' : `ledger-rx/${entry.slice(2)}`;
      const file = join(app, `use-${entry === '.' ? 'root' : entry.slice(2)}.ts`);
      writeFileSync(file, `import * as entry from '${specifier}';\nexport type Names = keyof typeof entry;\nexport const names: readonly Names[] = Object.keys(entry) as Names[];\n`);
      return file;
    });
    const strict = { strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, skipLibCheck: false, noEmit: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], types: ['node'] };
    const nodenext = { ...strict, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
    const bundler = { ...strict, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
    const report = (program: ts.Program, checked: readonly ts.SourceFile[]) =>
      [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...checked.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)])]
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n') + (d.file ? ` (${d.file.fileName.slice(app.length)})` : ''));

    // nodenext: what a user's tsc reports about our declarations, in full (TS7016 for a package whose
    // types are not installed, TS2307...). Checking every other package's declarations too would triple
    // the time; that was done once by hand: clean under `strict` (see docs/client.md#entry-points).
    const parsed = new Map<string, ts.SourceFile | undefined>();
    const host = ts.createCompilerHost(nodenext);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (name, ...rest) => (parsed.has(name) ? parsed.get(name) : parsed.set(name, read(name, ...rest)).get(name));
    const program = ts.createProgram(files, nodenext, host);
    const consumer = files.map((f) => program.getSourceFile(f) as ts.SourceFile);
    const ours = program.getSourceFiles().filter((f) => f.fileName.includes(`${sep}node_modules${sep}ledger-rx${sep}`));
    expect(ours.length).toBeGreaterThan(entries.length);
    expect(report(program, [...ours, ...consumer]), 'nodenext').toEqual([]);

    // bundler: the same declarations; what differs is resolution, so every import in them must resolve to
    // declarations, and the consumer files must compile
    const bundled = ts.createProgram(files, bundler, { ...host, getSourceFile: host.getSourceFile });
    expect(report(bundled, files.map((f) => bundled.getSourceFile(f) as ts.SourceFile)), 'bundler').toEqual([]);
    const unresolved = ours.flatMap((f) =>
      importsOf(f)
        .filter((i) => !i.startsWith('node:'))
        .filter((i) => !/\.d\.[cm]?ts$/.test(ts.resolveModuleName(i, f.fileName, bundler, host).resolvedModule?.resolvedFileName ?? ''))
        .map((i) => `${i} (${f.fileName.slice(app.length)})`),
    );
    expect(unresolved, 'bundler').toEqual([]);

    // every package our declarations import is one npm installs with us (not a devDependency, not a
    // transitive package that happens to be hoisted), or a peer
    const named = new Set(ours.flatMap(importsOf));
    const packages = [...named].filter((n) => !n.startsWith('.') && !n.startsWith('node:')).map((n) => n.split('/').slice(0, n.startsWith('@') ? 2 : 1).join('/'));
    const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]);
    expect(packages.length).toBeGreaterThan(3); // rxjs, zod, undici, pg...
    expect(packages.filter((p) => !declared.has(p) && !declared.has(`@types/${p}`))).toEqual([]);
  }, 90_000);

  it('passes publint and arethetypeswrong (an ESM-only package)', async () => {
    const { messages } = await publint({ pack: { tarball: readFileSync(tarball).buffer as ArrayBuffer }, level: 'suggestion', strict: true });
    expect(messages).toEqual([]);
    const attw = spawnSync(join(repoRoot, 'node_modules', '.bin', 'attw'), [tarball, '--profile', 'esm-only', '--format', 'table-flipped', '--no-emoji', '--no-color'], { encoding: 'utf8' });
    expect(attw.status, attw.stdout + attw.stderr).toBe(0);
    for (const entry of Object.keys(pkg.exports)) expect(attw.stdout).toContain(`"${entry === '.' ? 'ledger-rx' : `ledger-rx/${entry.slice(2)}`}"`);
  }, 60_000);
});
