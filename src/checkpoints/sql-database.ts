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
 * A database the sinks write to: statements outside a transaction, and `transaction(fn)`, which runs `fn`
 * on one connection inside `BEGIN`/`COMMIT`, rolling back (and rejecting with `fn`'s error) when `fn`
 * rejects. A PGlite instance fits as it is; `pgSqlDatabase(pool)` adapts a pg `Pool`.
 */
export interface SqlDatabase extends SqlQueryable {
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T>;
}
