import type { SqlDatabase } from '../../checkpoints/sql-database.js';
import { defaultDataDir } from '../ingest/default-data-dir.js';

/** An opened store for a maintenance command: its database (with `search_path` = the schema) and how to close it. */
export interface OpenedStore {
  readonly database: SqlDatabase;
  close(): Promise<void>;
}

/**
 * Opens the store a `ledger-rx store` command works on: the server of `pg` (one pg connection, `search_path` =
 * `schema`; pg loaded only here), else the embedded PostgreSQL in `dataDir` (default `./ledger-rx-data`; it serves
 * one process, so a running `ingest` on it makes this fail at once). Migrations are run, so the maintenance
 * functions exist on a store written by an older version.
 */
export async function openStoreDatabase(options: { readonly pg?: string | undefined; readonly dataDir?: string | undefined; readonly schema: string }): Promise<OpenedStore> {
  const { runMigrations } = await import('../../sinks/postgres/run-migrations.js');
  if (options.pg !== undefined) {
    const [pg, { pgSqlDatabase }] = await Promise.all([import('pg'), import('../../checkpoints/pg-sql-database.js')]);
    const pool = new pg.default.Pool({ connectionString: options.pg, max: 1, options: `-c search_path=${options.schema}` });
    const database = pgSqlDatabase(pool);
    try {
      await runMigrations(database, options.schema);
    } catch (error) {
      await pool.end();
      throw error;
    }
    return { database, close: () => pool.end() };
  }
  const { openEmbeddedPostgres } = await import('../../sinks/postgres/open-embedded-postgres.js');
  const embedded = await openEmbeddedPostgres(options.dataDir ?? defaultDataDir, { schema: options.schema, lockWaitMs: 0 });
  try {
    await runMigrations(embedded.database, options.schema);
  } catch (error) {
    await embedded.close();
    throw error;
  }
  return { database: embedded.database, close: () => embedded.close() };
}
