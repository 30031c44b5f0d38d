import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-dir.js';

/**
 * The public surface is deliberate: api/ holds one report per entry point of the exports map (every name it
 * exports with its published declaration, scripts/api-report.mjs), and `npm test` fails while a report
 * differs from the code, so a change of the surface is a change of api/ and shows in review. Every exported
 * name is documented, and every entry point lists its names one by one.
 */
const exportsMap = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { exports: Record<string, { types?: string } | string> }).exports;
const entries = Object.entries(exportsMap).flatMap(([subpath, target]) => (typeof target === 'object' && target.types !== undefined ? [{ subpath, types: target.types }] : []));
const temp = mkdtempSync(join(tmpdir(), 'ledger-rx-api-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const check = (reports?: string) =>
  spawnSync(process.execPath, [join(repoRoot, 'scripts', 'api-report.mjs'), ...(reports === undefined ? [] : ['--reports', reports])], { cwd: repoRoot, encoding: 'utf8' });

describe('the API report', () => {
  it('matches the code: every entry point has its report in api/, equal to what its declarations export, every name documented', () => {
    const run = check();
    expect(run.stdout + run.stderr).toBe(`api-report: ${entries.length} reports match the code\n`);
    expect(run.status).toBe(0);
    const names = entries.map((e) => `${e.subpath === '.' ? 'ledger-rx' : `ledger-rx-${e.subpath.slice(2).replace(/\//g, '-')}`}.api.md`);
    expect(readdirSync(join(repoRoot, 'api')).filter((f) => f.endsWith('.api.md')).sort()).toEqual(names.sort());
  }, 60_000);

  it('fails on a report that differs from the code, a missing one and a stray one, naming each', () => {
    const reports = join(temp, 'api');
    cpSync(join(repoRoot, 'api'), reports, { recursive: true });
    const jetstream = join(reports, 'ledger-rx-jetstream.api.md');
    writeFileSync(jetstream, readFileSync(jetstream, 'utf8').replace('static connect(', 'static open('));
    rmSync(join(reports, 'ledger-rx-tracing.api.md'));
    writeFileSync(join(reports, 'ledger-rx-gone.api.md'), '');
    const run = check(reports);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('ledger-rx-jetstream.api.md: differs from the code');
    expect(run.stdout).toMatch(/^ {2}\+ +static connect\(options: JetStreamSinkConnectOptions\): Promise<JetStreamSink>;$/m);
    expect(run.stdout).toContain('ledger-rx-tracing.api.md: missing');
    expect(run.stdout).toContain('ledger-rx-gone.api.md: belongs to no entry point');
    expect(run.stdout).not.toContain('ledger-rx-filters.api.md');
  }, 60_000);

  it('lists its names one by one in every entry point (no export *)', () => {
    for (const { types } of entries) {
      const source = join(repoRoot, types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'));
      expect(readFileSync(source, 'utf8'), source).not.toMatch(/^export \*/m);
    }
  });

  it('keeps the zod schemas in ledger-rx/schemas: the root exports their types only (named interfaces with their fields), and what the filters and operators subpaths export', async () => {
    const root = (await import(join(repoRoot, 'dist', 'index.js'))) as Record<string, unknown>;
    const schemas = (await import(join(repoRoot, 'dist', 'schemas', 'index.js'))) as Record<string, unknown>;
    expect(Object.keys(schemas).length).toBeGreaterThan(100);
    expect(Object.keys(root).filter((name) => name in schemas)).toEqual(['isUnknownVariant']);
    for (const subpath of ['filters', 'operators']) {
      const sub = (await import(join(repoRoot, 'dist', subpath, 'index.js'))) as Record<string, unknown>;
      expect(Object.keys(sub).filter((name) => root[name] !== sub[name]), subpath).toEqual([]);
    }
    const report = readFileSync(join(repoRoot, 'api', 'ledger-rx.api.md'), 'utf8');
    // The wire model's types are named interfaces with their fields, not types inferred from the schemas.
    expect(report).toContain('// JsGetUpdatesResponse (its type only)\ninterface JsGetUpdatesResponse {\n    update: Update;\n}\n');
    expect(report).toMatch(/^\/\/ CreatedEvent \(its type only\)\ninterface CreatedEvent \{\n {4}offset: number;$/m);
    expect(report).not.toMatch(/z\.(output|input)</);
  });
});
