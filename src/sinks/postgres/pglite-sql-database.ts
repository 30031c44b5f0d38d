import type { SqlDatabase, SqlQueryable, SqlScriptStep } from '../../checkpoints/sql-database.js';

/** The parts of a PGlite instance (or transaction) the adapter uses: `query` with PGlite's `blob` option. */
interface PgliteQueryable {
  query<R>(text: string, params?: unknown[], options?: { blob?: Blob }): Promise<{ rows: R[] }>;
}

/** A PGlite instance, as {@link pgliteSqlDatabase} uses it. */
export interface PgliteLike extends PgliteQueryable {
  transaction<T>(fn: (tx: PgliteQueryable) => Promise<T>): Promise<T>;
}

const stdin = /FROM STDIN( WITH \(FORMAT binary\))?$/;

/** Whether `database` is a PGlite instance (its `exec`, `listen` and `transaction`), which PostgresSink adapts. */
export function isPglite(database: object): database is PgliteLike {
  const d = database as Partial<Record<'exec' | 'listen' | 'transaction' | 'query', unknown>>;
  return typeof d.exec === 'function' && typeof d.listen === 'function' && typeof d.transaction === 'function' && typeof d.query === 'function';
}

/**
 * Adapts an embedded PGlite database to {@link SqlDatabase}: `query` and `transaction` as PGlite has them, and
 * `script(steps)` as one `transaction` running the steps one after the other (PGlite runs in this process: a round
 * trip costs nothing), each COPY step as `COPY … FROM '/dev/blob'` (its `WITH (FORMAT binary)` kept) with its data as the query's
 * `blob` (PGlite's way of copying from the client; docs/ingest.md, "The embedded store").
 */
export function pgliteSqlDatabase(db: PgliteLike): SqlDatabase {
  const on = (q: PgliteQueryable): SqlQueryable => ({
    query: async <R>(text: string, values?: readonly unknown[]) => ({ rows: (await q.query<R>(text, values === undefined ? undefined : [...values])).rows }),
  });
  return {
    ...on(db),
    transaction: <T>(fn: (tx: SqlQueryable) => Promise<T>) => db.transaction((tx) => fn(on(tx))),
    script: (steps: readonly SqlScriptStep[]) =>
      db.transaction(async (tx) => {
        for (const step of steps) {
          if ('sql' in step) {
            await tx.query(step.sql);
            continue;
          }
          if (!stdin.test(step.copy)) throw new RangeError(`not a COPY … FROM STDIN statement: ${step.copy}`);
          await tx.query(step.copy.replace(stdin, "FROM '/dev/blob'$1"), [], { blob: new Blob(step.data as Uint8Array[]) });
        }
      }),
  };
}
