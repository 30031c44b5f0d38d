import type { Pool } from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { AbortError } from '../../errors/abort-error.js';
import { ErrorCodes } from '../../errors/error-codes.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';

/**
 * Takes the session-level advisory lock of stream `streamName` in `schema` on a dedicated connection, so
 * only one process writes a stream at a time (PostgreSQL releases it when that connection ends, also
 * after a `kill -9`). Tries again every 200 ms for up to `waitMs`, then rejects with a `SINK_CONFLICT`
 * {@link LedgerRxError} saying another process holds it. Resolves with the function that releases the
 * lock and the connection.
 *
 * `signal` abandons the wait: it rejects promptly (with the signal's reason when that is an `Error`, else
 * an `AbortError`) and gives the connection back, without the lock.
 */
export async function acquireStreamLock(
  pool: Pool,
  schema: string,
  streamName: string,
  waitMs: number,
  signal?: AbortSignal,
): Promise<() => Promise<void>> {
  const key = `ledger-rx-ingest:${schema}:${streamName}`;
  const aborted = () => (signal?.reason instanceof Error ? signal.reason : new AbortError());
  const client = await pool.connect();
  const deadline = Date.now() + waitMs;
  let locked = false;
  try {
    for (;;) {
      const r = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [key]);
      locked = r.rows[0]?.locked === true;
      if (locked) break;
      if (Date.now() >= deadline) throw new LedgerRxError(ErrorCodes.SINK_CONFLICT, `another process is ingesting stream '${streamName}' into schema '${schema}'`);
      await sleep(200, undefined, signal ? { signal } : {}).catch(() => {
        throw aborted();
      });
    }
    if (signal?.aborted) throw aborted();
  } catch (error) {
    if (locked) await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => undefined);
    client.release();
    throw error;
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    try {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
    } finally {
      client.release();
    }
  };
}
