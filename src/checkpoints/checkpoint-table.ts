import type { Checkpoint } from '../operators/checkpoint.js';
import { parseCheckpoint } from './parse-checkpoint.js';
import type { SqlQueryable } from './sql-database.js';

interface Row {
  ledger_offset: string | number | bigint;
  synchronizer_times: unknown;
  updated_at: Date | string;
}

/**
 * The SQL of a checkpoint table (one row per stream name: `ledger_offset`, `synchronizer_times` jsonb,
 * `updated_at`), shared by `PostgresCheckpointStore` and the PostgreSQL sink, over any
 * {@link SqlQueryable} (a pg pool or client, a PGlite instance or transaction). `table` must already be a
 * checked SQL identifier. Errors are the driver's, unwrapped: callers add their own context.
 */
export class CheckpointTable {
  readonly table: string;

  constructor(table: string) {
    this.table = table;
  }

  /** Creates the table when it does not exist. */
  async create(db: SqlQueryable): Promise<void> {
    await db.query(
      `CREATE TABLE IF NOT EXISTS ${this.table} (
         stream_name text PRIMARY KEY,
         ledger_offset bigint NOT NULL,
         synchronizer_times jsonb NOT NULL DEFAULT '[]'::jsonb,
         updated_at timestamptz NOT NULL)`,
    );
  }

  /** The stored checkpoint of `streamName`, or `undefined`; a malformed row is a `CHECKPOINT_STORE_FAILED` error. */
  async load(db: SqlQueryable, streamName: string): Promise<Checkpoint | undefined> {
    const r = await db.query<Row>(`SELECT ledger_offset, synchronizer_times, updated_at FROM ${this.table} WHERE stream_name = $1`, [streamName]);
    const row = r.rows[0];
    if (!row) return undefined;
    const updatedAt = row.updated_at instanceof Date ? row.updated_at.toISOString() : String(row.updated_at);
    return parseCheckpoint(
      { offset: Number(row.ledger_offset), synchronizerTimes: row.synchronizer_times, updatedAt },
      `checkpoint row ${streamName}`,
    );
  }

  /** Stores `checkpoint` for `streamName`, unless the stored offset is already at or beyond it (never backwards). */
  async save(db: SqlQueryable, streamName: string, checkpoint: Checkpoint): Promise<void> {
    await db.query(
      `INSERT INTO ${this.table} (stream_name, ledger_offset, synchronizer_times, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (stream_name) DO UPDATE SET ledger_offset = EXCLUDED.ledger_offset,
         synchronizer_times = EXCLUDED.synchronizer_times, updated_at = EXCLUDED.updated_at
       WHERE ${this.table}.ledger_offset < EXCLUDED.ledger_offset`,
      [streamName, checkpoint.offset, JSON.stringify(checkpoint.synchronizerTimes), checkpoint.updatedAt],
    );
  }

  /**
   * Inside a transaction: locks the row of `streamName` (`FOR UPDATE`, inserting a placeholder at -1 when
   * the stream has none, so concurrent writers of a new stream also serialize) and returns its offset
   * (-1 for a new stream). Another transaction locking the same row waits until this one ends.
   */
  async lock(tx: SqlQueryable, streamName: string): Promise<number> {
    await tx.query(`INSERT INTO ${this.table} (stream_name, ledger_offset, updated_at) VALUES ($1, -1, now()) ON CONFLICT (stream_name) DO NOTHING`, [streamName]);
    const current = await tx.query<{ ledger_offset: string | number | bigint }>(`SELECT ledger_offset FROM ${this.table} WHERE stream_name = $1 FOR UPDATE`, [streamName]);
    return Number(current.rows[0]?.ledger_offset ?? -1);
  }
}
