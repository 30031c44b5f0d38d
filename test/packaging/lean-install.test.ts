import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { repoRoot } from '../support/shared-dir.js';

/**
 * The lean install (docs/packaging.md): `npm install ledger-rx` brings the library, its peers rxjs and zod,
 * and undici, ws and stream-json, nothing else: the packages of the CLI, the sinks, metrics and the sandbox
 * are optional peers. Without them, the entry points that need them refuse to load with a
 * `PeerDependencyMissingError` naming the package, and the library's bin says to use ledger-rx-cli. The CLI
 * package (packages/cli) installs everything: `npx ledger-rx-cli tail --sandbox` works with nothing else.
 * Both are packed and installed into empty folders from npm's cache (which `npm ci` filled).
 */
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  version: string;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const cliPkg = JSON.parse(readFileSync(join(repoRoot, 'packages', 'cli', 'package.json'), 'utf8')) as { version: string; bin: Record<string, string>; dependencies: Record<string, string> };
const heavy = ['@electric-sql/pglite', 'pg', '@types/pg', '@nats-io/jetstream', '@nats-io/nats-core', '@nats-io/transport-node', 'prom-client', 'commander', 'cli-truncate', 'picocolors', 'string-width', 'jose', '@opentelemetry/api'];
let dir: string;
let library: string;
let cli: string;
let sandbox: Sandbox;

const pack = (cwd: string) => join(dir, (JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { filename: string }[])[0]?.filename as string);
function app(name: string, tarballs: string[]): string {
  const folder = join(dir, name);
  mkdirSync(folder);
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, version: '1.0.0', type: 'module', private: true }));
  execFileSync('npm', ['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs], { cwd: folder, stdio: 'ignore' });
  return folder;
}
/** The packages in an app's node_modules (scoped ones as `@scope/name`). */
const installed = (folder: string) =>
  readdirSync(join(folder, 'node_modules'))
    .filter((n) => !n.startsWith('.'))
    .flatMap((n) => (n.startsWith('@') ? readdirSync(join(folder, 'node_modules', n)).map((m) => `${n}/${m}`) : [n]))
    .sort();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-rx-lean-'));
  library = pack(repoRoot);
  cli = pack(join(repoRoot, 'packages', 'cli'));
  sandbox = await startSandbox({ seed: 4 });
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the lean install', () => {
  it('declares the heavy packages as optional peers, and the root devDependencies install them for the clone and its tests', () => {
    for (const name of heavy) {
      expect(pkg.peerDependenciesMeta[name]?.optional, name).toBe(true);
      expect(pkg.devDependencies[name], name).toBeDefined();
    }
    expect(Object.keys(pkg.peerDependencies).filter((n) => pkg.peerDependenciesMeta[n]?.optional !== true).sort()).toEqual(['rxjs', 'zod']);
  });

  it('npm install ledger-rx: the library, rxjs, zod, undici, ws and stream-json, nothing heavy; a read works; each entry point that needs a peer names it', async () => {
    const folder = app('library-only', [library]);
    expect(installed(folder)).toEqual(['ledger-rx', 'rxjs', 'stream-chain', 'stream-json', 'tslib', 'undici', 'ws', 'zod']);
    expect(heavy.filter((name) => installed(folder).includes(name))).toEqual([]);
    writeFileSync(
      join(folder, 'read.mjs'),
      `
      import { createLedgerClient, tailUpdates, updateFormat, LedgerRxError, ErrorCodes } from 'ledger-rx';
      import { lastValueFrom, toArray } from 'rxjs';
      const client = createLedgerClient({ baseUrl: process.argv[2] });
      const end = await client.ledgerEnd();
      const format = updateFormat().transactions((t) => t.anyParty()).build();
      const offsets = (await lastValueFrom(tailUpdates(client, { updateFormat: format, endInclusive: end.offset }).pipe(toArray()))).map((e) => Object.values(e.update)[0].value.offset);
      await client.close();
      const refusals = {};
      for (const entry of ['ledger-rx/postgres', 'ledger-rx/jetstream', 'ledger-rx/metrics', 'ledger-rx/tracing', 'ledger-rx/sandbox']) {
        refusals[entry] = await import(entry).then(
          () => 'loaded',
          (e) => ({ typed: e instanceof LedgerRxError, code: e.code, packages: e.packages, message: e.message }),
        );
      }
      process.stdout.write(JSON.stringify({ end: end.offset, offsets, refusals, code: ErrorCodes.PEER_DEPENDENCY_MISSING }));
      `,
    );
    // asynchronously: the sandbox answers from this process
    const result = JSON.parse((await promisify(execFile)(process.execPath, ['read.mjs', sandbox.url], { cwd: folder, encoding: 'utf8' })).stdout) as {
      end: number;
      offsets: number[];
      refusals: Record<string, { typed: boolean; code: string; packages?: string[]; message: string }>;
      code: string;
    };
    expect(result.offsets.length).toBeGreaterThan(0);
    expect(result.offsets.at(-1)).toBeLessThanOrEqual(result.end);
    expect(result.offsets.every((o, i) => i === 0 || o > (result.offsets[i - 1] as number))).toBe(true);
    expect(result.code).toBe('PEER_DEPENDENCY_MISSING');
    const postgres = result.refusals['ledger-rx/postgres'];
    expect(postgres).toMatchObject({ typed: true, code: 'PEER_DEPENDENCY_MISSING', packages: ['pg'] });
    expect(postgres?.message).toContain('npm install pg');
    expect(result.refusals['ledger-rx/jetstream']).toMatchObject({ typed: true, code: 'PEER_DEPENDENCY_MISSING', packages: ['@nats-io/jetstream', '@nats-io/nats-core', '@nats-io/transport-node'] });
    expect(result.refusals['ledger-rx/metrics']).toMatchObject({ typed: true, code: 'PEER_DEPENDENCY_MISSING', packages: ['prom-client'] });
    expect(result.refusals['ledger-rx/tracing']).toMatchObject({ typed: true, code: 'PEER_DEPENDENCY_MISSING', packages: ['@opentelemetry/api'] });
    // the sandbox shares no code with the library (ARCHITECTURE.md), so its refusal is Node's own, naming jose
    expect(result.refusals['ledger-rx/sandbox']).toMatchObject({ typed: false, code: 'ERR_MODULE_NOT_FOUND' });
    expect(result.refusals['ledger-rx/sandbox']?.message).toContain("Cannot find package 'jose'");

    // the library's own bin: its version without any package, and a command says what to install
    const bin = join(folder, 'node_modules', '.bin', 'ledger-rx');
    expect(execFileSync(bin, ['--version'], { encoding: 'utf8' })).toBe(`${pkg.version}\n`);
    const tail = spawnSync(bin, ['tail', '--sandbox'], { encoding: 'utf8' });
    expect(tail.status).toBe(1);
    expect(tail.stderr).toContain("Cannot find package 'commander'");
    expect(tail.stderr).toContain('run it as `npx ledger-rx-cli ...`');
  }, 120_000);

  it('ledger-rx-cli: depends on this version of the library and on every optional peer the CLI loads, with the same ranges', () => {
    expect(cliPkg.version).toBe(pkg.version);
    expect(cliPkg.dependencies['ledger-rx']).toBe(pkg.version);
    const runtimePeers = Object.keys(pkg.peerDependencies).filter((n) => !n.startsWith('@types/'));
    expect(Object.keys(cliPkg.dependencies).sort()).toEqual(['ledger-rx', ...runtimePeers].sort());
    for (const name of runtimePeers) expect(cliPkg.dependencies[name], name).toBe(pkg.peerDependencies[name]);
    expect(Object.keys(cliPkg.bin)).toEqual(['ledger-rx-cli']);
  });

  it('npx ledger-rx-cli tail --sandbox: the whole CLI with nothing else installed', () => {
    const folder = app('cli', [library, cli]);
    expect(heavy.filter((name) => !name.startsWith('@types/') && !installed(folder).includes(name))).toEqual([]);
    // one copy of the library: the packed one, which the CLI package runs
    expect((JSON.parse(readFileSync(join(folder, 'node_modules', 'ledger-rx', 'package.json'), 'utf8')) as { version: string }).version).toBe(pkg.version);
    expect(readdirSync(join(folder, 'node_modules', 'ledger-rx-cli')).includes('node_modules')).toBe(false);
    const bin = join(folder, 'node_modules', '.bin', 'ledger-rx-cli');
    expect(execFileSync(bin, ['--version'], { encoding: 'utf8' })).toBe(`${pkg.version}\n`);
    const tail = spawnSync(bin, ['tail', '--sandbox', '--seed', '3', '--to', 'end'], { encoding: 'utf8' });
    expect(tail.stderr).not.toContain('Cannot find package');
    expect(tail.status, tail.stderr).toBe(0);
    const offsets = tail.stdout.trim().split('\n').map((line) => (Object.values((JSON.parse(line) as { update: Record<string, { value: { offset: number } }> }).update)[0] as { value: { offset: number } }).value.offset);
    expect(offsets.length).toBeGreaterThan(0);
    expect(offsets.every((o, i) => i === 0 || o > (offsets[i - 1] as number))).toBe(true);
  }, 120_000);
});
