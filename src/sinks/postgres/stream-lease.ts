import type { SqlDatabase } from '../../checkpoints/sql-database.js';

/**
 * A held stream lock (see `acquireStreamLock`): the PostgreSQL session that holds the advisory lock, kept
 * alive by a heartbeat, on which the stream's commits run.
 *
 * Committing on the session that holds the lock is the fence: when that session ends — the process
 * crashed or was killed, the server ended a session that fell silent (hung process, network cut) — the
 * lock is released and the same session can no longer commit, so a writer that lost the lock cannot write
 * a batch after the standby that took over read its checkpoint.
 */
export interface StreamLease {
  /** Transactions on the lock's session (one at a time). */
  readonly database: SqlDatabase;
  /** Resolves with the cause once the lock's session ended without `release()`: the lock is lost. */
  readonly lost: Promise<Error>;
  /** Releases the lock and closes its session. Idempotent. */
  release(): Promise<void>;
}
