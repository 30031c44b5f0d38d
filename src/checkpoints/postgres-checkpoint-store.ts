import type { Pool, PoolClient } from 'pg';
import { ErrorCodes } from '../errors/error-codes.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { LedgerRxError } from '../errors/ledger-rx-error.js';
import type { Checkpoint, CheckpointStore } from '../operators/checkpoint.js';
import { parseCheckpoint } from './parse-checkpoint.js';

/** Options of {@link PostgresCheckpointStore.open}. */
export interface PostgresCheckpointStoreOptions {
  /** A pg `Pool` to use (the store does not close it), or a connection string (the store owns its pool). */
  readonly pool: Pool | string;
  /** The name of the stream: one checkpoint row per name. */
  readonly streamName: string;
  /** Table of the checkpoint rows. Default `ledger_rx_checkpoints`. */
  readonly table?: string;
}

/** The outcome of {@link PostgresCheckpointStore.transaction}. */
export type TransactionOutcome<T> = { readonly applied: true; readonly result: T } | { readonly applied: false };

interface Row {
  ledger_offset: string;
  synchronizer_times: unknown;
  updated_at: Date;
}

/**
 * A {@link CheckpointStore} in PostgreSQL: one row per stream name in a table it creates if needed.
 * `save` never moves a stream's offset backwards.
 *
 * `transaction(checkpoint, fn)` gives exactly-once ingestion: it locks the stream's row, skips `fn` when the
 * stored offset is already at or beyond `checkpoint.offset` (the batch was committed before a crash), and
 * otherwise runs `fn` with the transaction's client and stores the checkpoint in the same transaction, so
 * the user's writes and the offset commit together or not at all.
 */
export class PostgresCheckpointStore implements CheckpointStore {
  readonly streamName: string;
  readonly table: string;
  private readonly pool: Pool;
  private readonly ownsPool: boolean;

  private constructor(pool: Pool, ownsPool: boolean, streamName: string, table: string) {
    this.pool = pool;
    this.ownsPool = ownsPool;
    this.streamName = streamName;
    this.table = table;
  }

  /** Connects (when given a connection string), creates the table if needed, and returns the store. */
  static async open(options: PostgresCheckpointStoreOptions): Promise<PostgresCheckpointStore> {
    const table = options.table ?? 'ledger_rx_checkpoints';
    if (!/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/.test(table)) throw new InvalidArgumentError('table', 'must be a plain lower-case SQL identifier');
    if (options.streamName.length === 0) throw new InvalidArgumentError('streamName', 'must not be empty');
    let pool: Pool;
    let owns = false;
    if (typeof options.pool === 'string') {
      const pg = await import('pg');
      pool = new pg.default.Pool({ connectionString: options.pool, max: 4 });
      owns = true;
    } else pool = options.pool;
    const store = new PostgresCheckpointStore(pool, owns, options.streamName, table);
    try {
      await pool.query(
        `CREATE TABLE IF NOT EXISTS ${table} (
           stream_name text PRIMARY KEY,
           ledger_offset bigint NOT NULL,
           synchronizer_times jsonb NOT NULL DEFAULT '[]'::jsonb,
           updated_at timestamptz NOT NULL)`,
      );
    } catch (error) {
      if (owns) await pool.end().catch(() => undefined);
      throw new LedgerRxError(ErrorCodes.CHECKPOINT_STORE_FAILED, `cannot create checkpoint table ${table}`, { cause: error });
    }
    return store;
  }

  private toCheckpoint(row: Row): Checkpoint {
    return parseCheckpoint(
      { offset: Number(row.ledger_offset), synchronizerTimes: row.synchronizer_times, updatedAt: row.updated_at.toISOString() },
      `checkpoint row ${this.streamName}`,
    );
  }

  async load(): Promise<Checkpoint | undefined> {
    try {
      const r = await this.pool.query<Row>(`SELECT ledger_offset, synchronizer_times, updated_at FROM ${this.table} WHERE stream_name = $1`, [this.streamName]);
      const row = r.rows[0];
      return row ? this.toCheckpoint(row) : undefined;
    } catch (error) {
      if (error instanceof LedgerRxError) throw error;
      throw new LedgerRxError(ErrorCodes.CHECKPOINT_STORE_FAILED, `cannot load checkpoint ${this.streamName}`, { cause: error });
    }
  }

  async save(checkpoint: Checkpoint): Promise<void> {
    await this.write(this.pool, checkpoint);
  }

  private async write(client: Pool | PoolClient, checkpoint: Checkpoint): Promise<void> {
    try {
      await client.query(
        `INSERT INTO ${this.table} (stream_name, ledger_offset, synchronizer_times, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (stream_name) DO UPDATE SET ledger_offset = EXCLUDED.ledger_offset,
           synchronizer_times = EXCLUDED.synchronizer_times, updated_at = EXCLUDED.updated_at
         WHERE ${this.table}.ledger_offset < EXCLUDED.ledger_offset`,
        [this.streamName, checkpoint.offset, JSON.stringify(checkpoint.synchronizerTimes), checkpoint.updatedAt],
      );
    } catch (error) {
      throw new LedgerRxError(ErrorCodes.CHECKPOINT_STORE_FAILED, `cannot save checkpoint ${this.streamName} at ${checkpoint.offset}`, { cause: error });
    }
  }

  /**
   * Runs `fn` and stores `checkpoint` in one database transaction; skips both when the stream is already at
   * or beyond `checkpoint.offset`. Rolls back and rethrows if `fn` throws.
   */
  async transaction<T>(checkpoint: Checkpoint, fn: (client: PoolClient) => Promise<T>): Promise<TransactionOutcome<T>> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO ${this.table} (stream_name, ledger_offset, updated_at) VALUES ($1, -1, now()) ON CONFLICT (stream_name) DO NOTHING`,
        [this.streamName],
      );
      const current = await client.query<{ ledger_offset: string }>(`SELECT ledger_offset FROM ${this.table} WHERE stream_name = $1 FOR UPDATE`, [
        this.streamName,
      ]);
      if (Number(current.rows[0]?.ledger_offset ?? -1) >= checkpoint.offset) {
        await client.query('ROLLBACK');
        return { applied: false };
      }
      const result = await fn(client);
      await this.write(client, checkpoint);
      await client.query('COMMIT');
      return { applied: true, result };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Closes the pool if the store created it. */
  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.end();
  }
}
