import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openEmbeddedPostgres } from '../../sinks/postgres/open-embedded-postgres.js';
import { defaultDataDir } from '../ingest/default-data-dir.js';
import { UsageError } from '../options/usage-error.js';
import type { CliIo } from '../process/cli-io.js';
import { describeError } from '../process/describe-error.js';
import { exitCodeFor } from '../process/exit-code-for.js';
import { ExitCode } from '../process/exit-code.js';
import { jsonRow, type SqlField } from './json-row.js';
import type { SqlOptions } from './sql-options.js';

const identifier = /^[a-z_][a-z0-9_]*$/;

interface QueryResult {
  readonly fields: readonly SqlField[];
  readonly rows: readonly Record<string, unknown>[];
}

/** Runs `query` on the server of `url` with `schema` as its `search_path` (pg loaded only here). */
async function queryServer(url: string, schema: string, query: string): Promise<QueryResult> {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    const result = await client.query(query);
    const last = Array.isArray(result) ? (result.at(-1) as typeof result) : result;
    return { fields: last.fields ?? [], rows: last.rows ?? [] };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * `ledger-rx sql QUERY`: prints the result of a query on the store `ingest` writes to — the embedded
 * PostgreSQL in `dataDir` (default `./ledger-rx-data`), or the server of `pg` — as an aligned table
 * (fitted to the terminal and coloured there; `(N rows)` after it) or as NDJSON, and resolves with the exit
 * code: 0; 2 for bad usage, a missing embedded database, or a query PostgreSQL refuses as invalid (SQLSTATE
 * class 42: syntax, unknown table or column); 1 when the database cannot be opened (an embedded one in use
 * by a running `ingest`: it serves one process at a time) or the query fails otherwise.
 */
export async function runSql(options: SqlOptions, io: CliIo): Promise<ExitCode> {
  let close: (() => Promise<void>) | undefined;
  try {
    const schema = options.schema ?? 'public';
    if (!identifier.test(schema)) throw new UsageError(`--schema must be a plain lower-case SQL identifier, got '${schema}'`);
    if (options.query.trim() === '') throw new UsageError('give the query to run, e.g. ledger-rx sql "select count(*) from updates"');
    let result: QueryResult;
    if (options.pg !== undefined) result = await queryServer(options.pg, schema, options.query);
    else {
      const dir = options.dataDir ?? defaultDataDir;
      if (!existsSync(join(resolve(dir), 'pgdata'))) {
        throw new UsageError(`no embedded database in ${dir}: run \`ledger-rx ingest\` first (it creates one there), or give --data-dir DIR or --pg URL`);
      }
      const embedded = await openEmbeddedPostgres(dir, { schema, lockWaitMs: 0 });
      close = () => embedded.close();
      result = await embedded.exec(options.query);
    }
    const fields = result.fields.map((f) => f.name);
    if (options.format === 'ndjson') {
      for (const row of result.rows) io.stdout.write(`${JSON.stringify(jsonRow(result.fields, row), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
    } else {
      const [{ formatTable }, { createPalette }] = await Promise.all([import('../pretty/format-table.js'), import('../pretty/palette.js')]);
      const lines = formatTable(fields, result.rows, createPalette(io.stdoutColors === true), io.stdoutIsTTY ? io.stdoutColumns?.() : undefined);
      io.stdout.write(`${lines.join('\n')}\n`);
    }
    return ExitCode.OK;
  } catch (error) {
    const sqlState = (error as { code?: unknown }).code;
    io.stderr.write(`${describeError(error)}\n`);
    return typeof sqlState === 'string' && sqlState.startsWith('42') ? ExitCode.USAGE : exitCodeFor(error);
  } finally {
    await close?.().catch(() => undefined);
  }
}
