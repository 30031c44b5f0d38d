import { execFileSync } from 'node:child_process';
import { copyFile, cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTypeScript } from '../../src/cli/codegen/generate-typescript.js';
import { readDarFile } from '../../src/daml/index.js';
import { spawnCli } from '../support/spawn-cli.js';
import { repoRoot, sharedDir } from '../support/shared-dir.js';

/**
 * `ledger-rx codegen` on the three DARs: the files (where, what), byte-identical reruns, and the generated code
 * compiled by `tsc --strict` without `skipLibCheck` under `nodenext` and under `bundler`, in a project whose
 * `node_modules/ledger-rx` links this package's build, with a usage file whose mistakes must not compile.
 */
const dars = ['richtypes.dar', 'splice-api-token-holding-v1.dar', 'splice-amulet-name-service.dar'];

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

describe.skipIf(sharedDir === undefined)('ledger-rx codegen', () => {
  let dir: string;
  const darPaths = (): string[] => dars.map((d) => join(sharedDir!, 'dars', d));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ledger-rx-codegen-'));
    for (const out of ['first', 'second']) {
      const cli = spawnCli(['codegen', ...darPaths(), '--out', join(dir, out)]);
      const { code } = await cli.exited;
      expect(code, cli.stderr()).toBe(0);
      expect(cli.stderr()).toMatch(/^codegen: wrote \d+ files for \d+ packages to /);
    }
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes one file per module under the package name, and an index per package', async () => {
    const files = await listFiles(join(dir, 'first'));
    expect(files).toContain('richtypes/RichTypes.ts');
    expect(files).toContain('richtypes/index.ts');
    expect(files).toContain('splice-api-token-holding-v1/Splice/Api/Token/HoldingV1.ts');
    expect(files).toContain('splice-amulet-name-service/Splice/Ans.ts');
    expect(files).toContain('splice-amulet-name-service/Splice/Ans/AmuletConversionRateFeed.ts');
    // the dependencies the main packages' types need
    expect(files).toContain('ghc-stdlib-DA-Internal-Template/DA/Internal/Template.ts');
    expect(files).toContain('splice-api-token-metadata-v1/Splice/Api/Token/MetadataV1.ts');
    expect(files).toContain('daml-stdlib-DA-Time-Types/DA/Time/Types.ts');
    for (const f of files.filter((x) => x.endsWith('/index.ts'))) expect(files.some((x) => x !== f && x.startsWith(f.slice(0, -'index.ts'.length)))).toBe(true);
    const rich = await readFile(join(dir, 'first', 'richtypes', 'RichTypes.ts'), 'utf8');
    expect(rich).toContain("import * as d from 'ledger-rx/daml';");
    expect(rich).toContain('amount: d.numeric(10),');
    expect(rich).toContain('fee: d.numeric(2),');
    expect(rich).toContain('note: d.optional(d.text),');
    expect(rich).toContain("Relabel: d.choice<Relabel, d.ContractId<RichRecord>>({ name: 'Relabel', consuming: false, templateId: '#richtypes:RichTypes:RichRecord'");
    expect(rich).toContain("| { readonly tag: 'Pending'; readonly value: d.Unit }");
  });

  it('is deterministic: a second run, and the DARs in another order, give the same bytes', async () => {
    const first = await listFiles(join(dir, 'first'));
    expect(await listFiles(join(dir, 'second'))).toEqual(first);
    for (const f of first) expect(await readFile(join(dir, 'second', f), 'utf8'), f).toBe(await readFile(join(dir, 'first', f), 'utf8'));
    const reversed = generateTypeScript(await Promise.all(darPaths().reverse().map((p) => readDarFile(p))));
    expect(reversed.map((f) => f.path)).toEqual(first);
    for (const f of reversed) expect(f.content, f.path).toBe(await readFile(join(dir, 'first', f.path), 'utf8'));
  });

  it('compiles with tsc --strict, no skipLibCheck, under nodenext and bundler; mistakes do not compile', async () => {
    const project = join(dir, 'project');
    await mkdir(join(project, 'node_modules'), { recursive: true });
    await symlink(repoRoot, join(project, 'node_modules', 'ledger-rx'), 'dir');
    await symlink(join(repoRoot, 'node_modules', 'zod'), join(project, 'node_modules', 'zod'), 'dir');
    await writeFile(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
    await cp(join(dir, 'first'), join(project, 'src', 'generated'), { recursive: true });
    await copyFile(join(repoRoot, 'test', 'daml', 'fixtures', 'typed-usage.ts.txt'), join(project, 'src', 'usage.ts'));
    const base = { strict: true, target: 'es2022', noEmit: true, skipLibCheck: false, types: [] };
    const configs = {
      'tsconfig.nodenext.json': { ...base, module: 'nodenext', moduleResolution: 'nodenext' },
      'tsconfig.bundler.json': { ...base, module: 'esnext', moduleResolution: 'bundler', exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, verbatimModuleSyntax: true },
    };
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    for (const [name, compilerOptions] of Object.entries(configs)) {
      await writeFile(join(project, name), JSON.stringify({ compilerOptions, include: ['src'] }));
      let output = '';
      try {
        execFileSync(process.execPath, [tsc, '-p', join(project, name)], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error);
      }
      expect(output, name).toBe('');
    }
    // and the check is real: without the directives, every marked line is an error
    const usage = await readFile(join(project, 'src', 'usage.ts'), 'utf8');
    await writeFile(join(project, 'src', 'usage.ts'), usage.replace(/^\/\/ @ts-expect-error .*\n/gm, ''));
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', join(project, 'tsconfig.nodenext.json')], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    const marked = (usage.match(/^\/\/ @ts-expect-error /gm) ?? []).length;
    const erroredLines = new Set([...output.matchAll(/usage\.ts\((\d+),/g)].map((m) => m[1]));
    expect(marked).toBe(10);
    expect(erroredLines.size).toBe(marked);
  }, 300_000);
});
