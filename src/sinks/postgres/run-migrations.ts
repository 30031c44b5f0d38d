import type { SqlDatabase } from '../../checkpoints/sql-database.js';
import type { Migration } from './migration.js';
import { migrations as allMigrations } from './migrations.js';

/** The outcome of {@link runMigrations}. */
export interface MigrationsResult {
  /** Versions applied by this call, in order (empty when the schema was up to date). */
  readonly applied: readonly number[];
  /** The schema version afterwards. */
  readonly version: number;
}

const identifier = /^[a-z_][a-z0-9_]*$/;

/**
 * Brings `schema` up to the latest migration, in one transaction under a transaction-level advisory lock
 * keyed by the schema name: concurrent callers (two processes starting at once) run one after the other,
 * and the second finds nothing left to do. Creates the schema and the `ledger_rx_migrations` table
 * (`version` primary key, `name`, `applied_at`) when missing, applies each missing version in order and
 * records it. Idempotent. A failure rolls everything back and rejects.
 *
 * @param db - a database whose connections may have any `search_path`; the transaction sets its own.
 * @param schema - a plain lower-case SQL identifier.
 * @param migrations - for tests; default the ingestion schema's migrations.
 */
export async function runMigrations(db: SqlDatabase, schema: string, migrations: readonly Migration[] = allMigrations): Promise<MigrationsResult> {
  if (!identifier.test(schema)) throw new RangeError(`schema must be a plain lower-case SQL identifier, got '${schema}'`);
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`ledger-rx-migrations:${schema}`]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await tx.query(`SET LOCAL search_path TO ${schema}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ledger_rx_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set((await tx.query<{ version: number }>('SELECT version FROM ledger_rx_migrations')).rows.map((r) => r.version));
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      for (const statement of m.statements) await tx.query(statement);
      await tx.query('INSERT INTO ledger_rx_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
      done.add(m.version);
    }
    return { applied, version: Math.max(0, ...done) };
  });
}
