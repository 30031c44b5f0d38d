import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-dir.js';

/**
 * The published package: `npm pack` (of the built dist), installed into an empty folder with its
 * dependencies (from npm's cache, which `npm ci` filled), imported through every entry of the exports map,
 * and its bin run, with its peers (rxjs, zod) installed beside it as an application would. Catches a broken
 * exports map, a file missing from `files`, or a dependency that is only a devDependency.
 */
let dir: string;
let tarball: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-rx-pack-'));
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  tarball = join(dir, (JSON.parse(out) as { filename: string }[])[0]?.filename as string);
  const app = join(dir, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', type: 'module', private: true }));
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-save', tarball, 'rxjs@^7.8.0', 'zod@^4.6.7'], { cwd: app, stdio: 'ignore' });
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm pack', () => {
  it('ships dist with declarations, and nothing from src or test', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(listing).toContain('package/dist/index.js');
    expect(listing).toContain('package/dist/index.d.ts');
    expect(listing).toContain('package/dist/cli/main.js');
    expect(listing.filter((f) => f.startsWith('package/src/') || f.startsWith('package/test/'))).toEqual([]);
  });

  it('installs into an empty folder and imports through every entry of the exports map', () => {
    const app = join(dir, 'app');
    writeFileSync(
      join(app, 'check.mjs'),
      `
      import * as root from 'ledger-rx';
      import * as filters from 'ledger-rx/filters';
      import * as operators from 'ledger-rx/operators';
      import * as sandboxApi from 'ledger-rx/sandbox';
      import * as metricsApi from 'ledger-rx/metrics';
      import * as sinks from 'ledger-rx/sinks';
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
      const schema = root.GetLedgerEndResponse.safeParse({ offset: 3 }).success && root.GetLedgerEndResponse instanceof z.ZodType;
      process.stdout.write(JSON.stringify({ name: pkg.name, end: end.offset, got: got.length, counted, errors: typeof root.LedgerApiError, sink: typeof sinks.PostgresSink, schema, internal: typeof root.rememberElementText }));
      `,
    );
    const result = JSON.parse(execFileSync(process.execPath, ['check.mjs'], { cwd: app, encoding: 'utf8' })) as { name: string; end: number; got: number; counted: number; errors: string; sink: string; schema: boolean; internal: string };
    expect(result.name).toBe('ledger-rx');
    expect(result.end).toBeGreaterThan(0);
    expect(result.got).toBeGreaterThan(0);
    expect(result.counted).toBe(result.got); // ledger-rx/metrics counted each element through prom-client
    expect(result.errors).toBe('function');
    expect(result.schema).toBe(true); // the schemas are built with the application's zod (a peer)
    expect(result.internal).toBe('undefined');
    expect(result.sink).toBe('function');
  });

  it('installs the ledger-rx bin', () => {
    const app = join(dir, 'app');
    expect(readdirSync(join(app, 'node_modules', '.bin'))).toContain('ledger-rx');
    const help = execFileSync(join(app, 'node_modules', '.bin', 'ledger-rx'), ['--help'], { encoding: 'utf8' });
    expect(help).toMatch(/^Usage: ledger-rx/);
  });
});
