import type { Pool, PoolClient } from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { pgSqlDatabase } from '../../checkpoints/pg-sql-database.js';
import { AbortError } from '../../errors/abort-error.js';
import { ErrorCodes } from '../../errors/error-codes.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import type { StreamLease } from './stream-lease.js';

/** Options of {@link acquireStreamLock}. */
export interface StreamLockOptions {
  /** How long to wait while another process holds the lock; `Infinity` waits until it is free (a standby). */
  readonly waitMs: number;
  /**
   * The lease: the server ends the lock's session after this much silence (idle, or idle inside a
   * transaction), which releases the lock; a heartbeat keeps a live holder's session busy every quarter of
   * it. So a holder that hangs or is cut off loses the lock after about this long. Default 10 000 ms.
   */
  readonly leaseMs?: number | undefined;
  /** Abandons the wait (rejects promptly, without the lock). */
  readonly signal?: AbortSignal | undefined;
  /** Called once, when the lock is first found held by another process. */
  readonly onWaiting?: (() => void) | undefined;
}

const pollMs = 200;
const reconnectMs = 1_000;

/**
 * Sets the session's timeouts so that the server ends it, releasing its locks, when its holder falls
 * silent: `idle_session_timeout` (PostgreSQL 14 and later; skipped on older servers) and
 * `idle_in_transaction_session_timeout` at the lease, and TCP keepalives (5 s idle, 2 s apart, 3 probes)
 * for a peer that is gone.
 */
async function configureSession(client: PoolClient, leaseMs: number): Promise<void> {
  await client.query(`SET idle_in_transaction_session_timeout = ${leaseMs}`);
  await client.query('SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3');
  try {
    await client.query(`SET idle_session_timeout = ${leaseMs}`);
  } catch (error) {
    if ((error as { code?: unknown }).code !== '42704') throw error; // unrecognized parameter: before PostgreSQL 14
  }
}

/**
 * Takes the session-level advisory lock of stream `streamName` in `schema` on a session of its own, so only
 * one process writes a stream at a time, and resolves with the {@link StreamLease} (the stream's commits
 * run on that session). PostgreSQL releases the lock when the session ends: at `release()`, when the
 * process dies (`kill -9` closes its socket), or when the server ends a session silent for `leaseMs`
 * (a hung holder, a network cut; see `configureSession`).
 *
 * While another process holds it, tries again every 200 ms, calling `onWaiting` once; after `waitMs` it
 * rejects with a `SINK_CONFLICT` {@link LedgerRxError}. With `waitMs` `Infinity` (a standby) it waits until
 * the lock is free, and a connection lost meanwhile is opened again (every second) rather than failing.
 * `signal` abandons the wait: it rejects promptly (with the signal's reason when that is an `Error`, else
 * an `AbortError`) and gives the connection back, without the lock.
 */
export async function acquireStreamLock(pool: Pool, schema: string, streamName: string, options: StreamLockOptions): Promise<StreamLease> {
  const { waitMs, signal } = options;
  const leaseMs = options.leaseMs ?? 10_000;
  const key = `ledger-rx-ingest:${schema}:${streamName}`;
  const aborted = () => (signal?.reason instanceof Error ? signal.reason : new AbortError());
  const pause = (ms: number) =>
    sleep(ms, undefined, signal ? { signal } : {}).catch(() => {
      throw aborted();
    });
  const deadline = Date.now() + waitMs;
  let waiting = false;
  for (;;) {
    if (signal?.aborted) throw aborted();
    let client: PoolClient;
    try {
      client = await pool.connect();
      await configureSession(client, leaseMs).catch((error: unknown) => {
        client.release(true);
        throw error;
      });
    } catch (error) {
      if (waitMs !== Infinity) throw error;
      await pause(reconnectMs);
      continue;
    }
    let locked = false;
    let broken = false;
    try {
      for (;;) {
        let r;
        try {
          r = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [key]);
        } catch (error) {
          broken = true;
          throw error;
        }
        locked = r.rows[0]?.locked === true;
        if (locked) break;
        if (!waiting) {
          waiting = true;
          options.onWaiting?.();
        }
        if (Date.now() >= deadline) throw new LedgerRxError(ErrorCodes.SINK_CONFLICT, `another process is ingesting stream '${streamName}' into schema '${schema}'`);
        await pause(pollMs);
      }
      if (signal?.aborted) throw aborted();
    } catch (error) {
      if (locked) await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => undefined);
      client.release(true);
      if (broken && waitMs === Infinity && !signal?.aborted) {
        await pause(reconnectMs);
        continue;
      }
      throw error;
    }
    return lease(client, key, leaseMs);
  }
}

/** The lease of a session that holds the lock: heartbeat, loss detection, release. */
function lease(client: PoolClient, key: string, leaseMs: number): StreamLease {
  let released = false;
  let lose: (error: Error) => void = () => undefined;
  const lost = new Promise<Error>((resolve) => (lose = resolve));
  let done = false;
  const end = (error: Error) => {
    if (released || done) return;
    done = true;
    clearInterval(heartbeat);
    lose(error);
  };
  const onError = (error: Error) => end(error);
  const onEnd = () => end(new Error('the session holding the stream lock ended'));
  client.on('error', onError);
  client.on('end', onEnd);
  const heartbeat = setInterval(() => {
    client.query('SELECT 1').catch((error: unknown) => end(error instanceof Error ? error : new Error(String(error))));
  }, Math.max(250, Math.floor(leaseMs / 4)));
  heartbeat.unref();
  return {
    database: pgSqlDatabase(client),
    lost,
    async release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      try {
        if (!done) await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
      } finally {
        client.off('error', onError);
        client.off('end', onEnd);
        client.on('error', () => undefined);
        // the session's timeouts must not follow the connection back into the pool
        client.release(true);
      }
    },
  };
}
