import { execFileSync } from 'node:child_process';
import { repoRoot } from './shared-dir.js';

/**
 * The CommonJS modules a fresh process has loaded after importing `entry` (prom-client and
 * @opentelemetry/api resolve to CommonJS), for checks that a dependency stays off an entry point.
 */
export function loadedAfterImport(entry: string): string[] {
  const script = `
    await import(${JSON.stringify(entry)});
    const { createRequire } = await import('node:module');
    process.stdout.write(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' })) as string[];
}
