/**
 * What the SQL of ledger-rx's PostgreSQL stores needs from a connection: run one statement with
 * positional parameters (`$1`, `$2`, …) and get its rows. A pg `Pool` or `PoolClient` fits as it is, and so
 * does a PGlite instance or transaction. `name` asks for a named prepared statement where the driver has
 * them (pg); others ignore it.
 */
export interface SqlQueryable {
  query<R = Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<{ readonly rows: R[] }>;
}

/**
 * One step of {@link SqlDatabase.script}: a statement without parameters (`sql`), or a `COPY table (columns) FROM
 * STDIN` statement (`copy`, its `FORMAT` option included) with its data in that format (`data`: the bytes in order, split
 * anywhere).
 */
export type SqlScriptStep = { readonly sql: string } | { readonly copy: string; readonly data: readonly Uint8Array[] };

/**
 * A database the sinks write to: statements outside a transaction, and `transaction(fn)`, which runs `fn`
 * on one connection inside `BEGIN`/`COMMIT`, rolling back (and rejecting with `fn`'s error) when `fn`
 * rejects. A PGlite instance fits as it is; `pgSqlDatabase(pool)` adapts a pg `Pool`.
 */
export interface SqlDatabase extends SqlQueryable {
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /**
   * Runs `steps` in order as ONE transaction and resolves once it committed; the first step that fails rolls it
   * back and the promise rejects with that step's error, nothing of the script being kept. `pgSqlDatabase` sends
   * the whole script, its COPY data included, in one round trip (docs/ingest.md, "One round trip per batch"); the
   * embedded store runs the steps one after the other. What `PostgresSink` commits its batches with; a database
   * without it cannot be given to the sink (a PGlite instance is adapted).
   */
  script?(steps: readonly SqlScriptStep[]): Promise<void>;
}
