import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { SqlDatabase, SqlQueryable } from './sql-database.js';

/** Statement text → prepared statement name, for every adapter of the process. */
const names = new Map<string, string>();

/**
 * Adapts a pg `Pool` to {@link SqlDatabase}. Every statement with parameters runs as a named prepared
 * statement, named after a hash of its text (`ledger-rx-<sha1>`: the same name for the same text in every
 * adapter, as pg requires on a shared connection), so PostgreSQL parses and plans the sinks' large multi-row statements once per connection instead of once per batch. `transaction(fn)`
 * takes a connection from the pool, runs `BEGIN`, `fn`, `COMMIT` (`ROLLBACK` and rethrow when anything
 * fails) and gives the connection back. The pool stays the caller's to end.
 */
export function pgSqlDatabase(pool: Pool): SqlDatabase {
  const on = (client: Pool | PoolClient): SqlQueryable => ({
    async query<R>(text: string, values?: readonly unknown[]) {
      if (values === undefined || values.length === 0) return { rows: (await client.query(text)).rows as R[] };
      let name = names.get(text);
      if (name === undefined) {
        name = `ledger-rx-${createHash('sha1').update(text).digest('hex')}`;
        names.set(text, name);
      }
      return { rows: (await client.query({ name, text, values: [...values] })).rows as R[] };
    },
  });
  const direct = on(pool);
  return {
    query: (text, values) => direct.query(text, values),
    async transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(on(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
  };
}
