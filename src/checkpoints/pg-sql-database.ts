import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { PgScriptQuery } from './pg-script-query.js';
import type { SqlDatabase, SqlQueryable, SqlScriptStep } from './sql-database.js';

/** Statement text → prepared statement name, for every adapter of the process. */
const names = new Map<string, string>();

/**
 * Adapts a pg `Pool` — or one connection of it (a `PoolClient`) — to {@link SqlDatabase}. Every statement with parameters runs as a named prepared
 * statement, named after a hash of its text (`ledger-rx-<sha1>`: the same name for the same text in every
 * adapter, as pg requires on a shared connection), so PostgreSQL parses and plans the sinks' large multi-row statements once per connection instead of once per batch. `transaction(fn)`
 * takes a connection from the pool, runs `BEGIN`, `fn`, `COMMIT` (`ROLLBACK` and rethrow when anything
 * fails) and gives the connection back; on a single connection it runs there, one transaction after the
 * other. `script(steps)` sends a whole transaction, COPY data included, in one round trip (`PgScriptQuery`), and
 * `ROLLBACK` after a failure. The pool (or connection) stays the caller's to end.
 */
export function pgSqlDatabase(pool: Pool | PoolClient): SqlDatabase {
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
  if (isPoolClient(pool)) {
    // one connection: statements and transactions take turns, so none runs inside another's transaction
    const client = pool;
    const direct = on(client);
    let turn: Promise<unknown> = Promise.resolve();
    const next = <T>(work: () => Promise<T>): Promise<T> => {
      const result = turn.then(work);
      turn = result.catch(() => undefined);
      return result;
    };
    return {
      query: (text, values) => next(() => direct.query(text, values)),
      transaction: (fn) => next(() => inTransaction(client, fn)),
      script: (steps) => next(() => runScript(client, steps)),
    };
  }
  const direct = on(pool);
  const shared = pool;
  return {
    query: (text, values) => direct.query(text, values),
    async transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T> {
      const client = await shared.connect();
      try {
        return await inTransaction(client, fn);
      } finally {
        client.release();
      }
    },
    async script(steps: readonly SqlScriptStep[]): Promise<void> {
      const client = await shared.connect();
      try {
        await runScript(client, steps);
      } finally {
        client.release();
      }
    },
  };

  async function inTransaction<T>(client: PoolClient, fn: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    try {
      await client.query('BEGIN');
      const result = await fn(on(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
}

/** Runs `steps` as one transaction on `client` in one round trip; `ROLLBACK` (its own failure ignored) after a failure. */
async function runScript(client: PoolClient, steps: readonly SqlScriptStep[]): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      client.query(new PgScriptQuery(steps, (error) => (error === undefined ? resolve() : reject(error))));
    });
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

function isPoolClient(target: Pool | PoolClient): target is PoolClient {
  return typeof (target as Partial<PoolClient>).release === 'function';
}
