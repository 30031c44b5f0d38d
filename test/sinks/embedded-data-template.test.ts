import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * A new embedded store starts from the build's template of an empty data directory
 * (scripts/pglite-data-template.mjs) instead of PGlite's initdb, which doubled the peak memory of the process
 * (docs/ingest.md, "Memory of the embedded store"); a template PGlite cannot load is dropped for initdb.
 */
const dirs: string[] = [];
async function newDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-rx-template-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  vi.doUnmock('../../src/sinks/postgres/pglite-data-template.js');
  vi.resetModules();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('the data-directory template of the embedded store', () => {
  it('the build made one for the installed PGlite', async () => {
    const { pgliteDataTemplate } = await import('../../src/sinks/postgres/pglite-data-template.js');
    const template = await pgliteDataTemplate();
    expect(template).toBeInstanceOf(Blob);
    expect(template?.size).toBeGreaterThan(1_000_000);
  });

  it('a new store made from it is a working database that keeps its rows across a reopen', async () => {
    const { openEmbeddedPostgres } = await import('../../src/sinks/postgres/open-embedded-postgres.js');
    const dir = await newDir();
    const first = await openEmbeddedPostgres(dir);
    expect(existsSync(join(dir, 'pgdata', 'PG_VERSION'))).toBe(true);
    await first.exec('CREATE TABLE kept (n int); INSERT INTO kept VALUES (1), (2), (3)');
    await first.close();
    const again = await openEmbeddedPostgres(dir);
    try {
      expect((await again.exec('SELECT sum(n)::int AS s FROM kept')).rows).toEqual([{ s: 6 }]);
    } finally {
      await again.close();
    }
  }, 120_000);

  it('a template PGlite cannot load is dropped: the store is made by initdb and works', async () => {
    vi.doMock('../../src/sinks/postgres/pglite-data-template.js', () => ({ pgliteDataTemplate: async () => new Blob([new Uint8Array([1, 2, 3, 4])]) }));
    const { openEmbeddedPostgres } = await import('../../src/sinks/postgres/open-embedded-postgres.js');
    const dir = await newDir();
    const db = await openEmbeddedPostgres(dir);
    try {
      expect((await db.exec('SELECT 40 + 2 AS n')).rows).toEqual([{ n: 42 }]);
    } finally {
      await db.close();
    }
  }, 120_000);
});
