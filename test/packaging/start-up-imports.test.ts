import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import type * as Undici from 'undici';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-dir.js';

/**
 * What a cold start loads. dist/ is a bundle (scripts/build.mjs): `import 'ledger-rx'` loads its entry and
 * three chunks, with the peers (rxjs, zod) and the JSON body parser, not the HTTP client, the database and
 * broker drivers or the sandbox; `ledger-rx --version` loads nothing but its entry, `--help` commander and
 * the commands' flags, and each command loads what it runs only when it runs. The timings are in
 * benchmarks/start-up (never asserted here).
 */

const importFrom = /^(?:import|export)\s[^;]*?from\s*'([^']+)'|^import\s*'([^']+)'/gm;

/** The files and the packages the static imports of a built module reach (relative imports followed). */
function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, from, bare] of readFileSync(file, 'utf8').matchAll(importFrom)) {
      const specifier = from ?? bare;
      if (specifier === undefined) continue;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else if (!specifier.startsWith('node:')) packages.add(specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
    }
  };
  visit(resolve(repoRoot, 'dist', entry));
  return { files, packages };
}

/** The files a built module imports lazily (`import('./…')`). */
function lazyImports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/\bimport\('(\.[^']+)'\)/g)].map(([, specifier]) => resolve(dirname(file), specifier as string));
}

/** The CommonJS modules (undici, pg, ws, prom-client are CommonJS) a fresh process has loaded after `script`. */
function loadedCommonJs(script: string): string[] {
  const code = `${script}\nconst { createRequire } = await import('node:module');\nprocess.stdout.write(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: repoRoot, encoding: 'utf8' })) as string[];
}
const has = (loaded: string[], pkg: string) => loaded.some((p) => p.includes(`/node_modules/${pkg}/`));

describe('a cold start loads only what it uses', () => {
  it("import 'ledger-rx' loads its entry and three chunks, and reaches rxjs, zod and stream-json, nothing else", () => {
    const { files, packages } = staticGraph('index.js');
    expect([...files].map((f) => basename(f).replace(/-[\w-]+\.js$/, '')).sort()).toEqual(['core', 'errors', 'index.js', 'wire']);
    expect([...packages].sort()).toEqual(['rxjs', 'stream-json', 'zod']);
  });

  it('ledger-rx --version loads nothing but its entry; the program reaches commander only until a command runs', () => {
    const main = staticGraph(join('cli', 'main.js'));
    expect([...main.packages]).toEqual([]);
    expect(main.files.size).toBe(1);
    const version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      expect(execFileSync(process.execPath, [join(repoRoot, 'dist', 'cli', 'main.js'), flag], { encoding: 'utf8' })).toBe(`${version.version}\n`);
    }
    const [program, ...others] = lazyImports(join(repoRoot, 'dist', 'cli', 'main.js'));
    expect(others).toEqual([]);
    const { files, packages } = staticGraph(program as string);
    expect([...packages]).toEqual(['commander']);
    const runners = /\/(run-(tail|ingest|publish|sql|acs|submit)|start-sandbox)-[\w-]+\.js$/;
    expect([...files].filter((f) => runners.test(f))).toEqual([]);
    expect(lazyImports(program as string).filter((f) => runners.test(f)).length).toBeGreaterThanOrEqual(6); // each command's runner, loaded when it runs
  });

  it('createLedgerClient loads the part of undici the transport uses; a request loads @opentelemetry/api only once something is registered with it', () => {
    const entry = JSON.stringify(join(repoRoot, 'dist', 'index.js'));
    const imported = loadedCommonJs(`await import(${entry});`);
    expect(has(imported, 'rxjs')).toBe(true); // the check sees CommonJS modules
    expect(['undici', 'pg', 'ws', 'prom-client', '@opentelemetry/api'].filter((p) => has(imported, p))).toEqual([]);
    // a request to a closed port: traced (or not) and sent, then refused
    const requested = loadedCommonJs(`const { createLedgerClient } = await import(${entry});
      const client = createLedgerClient({ baseUrl: 'http://127.0.0.1:9' });
      const error = await client.version().catch((e) => e);
      await client.close();
      if (error?.code !== 'CONNECTION_FAILED') throw error;`);
    const undici = requested.filter((p) => p.includes('/node_modules/undici/'));
    expect(undici.length).toBeGreaterThan(0);
    expect(undici.length).toBeLessThan(40); // its Agent and Dispatcher#request, not the whole package (110 files)
    expect(has(requested, '@opentelemetry/api')).toBe(false);
  });

  it("undici's Agent and request, loaded alone, are the ones its entry point exports", async () => {
    const { loadUndici } = await import('../../src/client/http/load-undici.js');
    const parts = loadUndici();
    const undici = createRequire(join(repoRoot, 'package.json'))('undici') as typeof Undici;
    expect(parts.Agent).toBe(undici.Agent);
    expect(parts.request).toBe(undici.Dispatcher.prototype.request);
  });
});
