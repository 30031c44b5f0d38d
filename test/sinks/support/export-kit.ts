import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach } from 'vitest';

/**
 * A maker of fresh temporary directories named `<prefix>…`, each removed after the test that made it
 * (registers an `afterEach` in the calling test file).
 */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}

/** Runs `sql` on a fresh in-memory DuckDB (how analysts read the export) and gives its rows as plain objects. */
export async function duckQuery(sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  try {
    return (await con.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}
