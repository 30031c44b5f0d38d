import type { Pool, PoolClient } from 'pg';
import { ErrorCodes } from '../errors/error-codes.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { LedgerRxError } from '../errors/ledger-rx-error.js';
import type { Checkpoint, CheckpointStore } from '../operators/checkpoint.js';
import { CheckpointTable } from './checkpoint-table.js';

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
  private readonly rows: CheckpointTable;

  private constructor(pool: Pool, ownsPool: boolean, streamName: string, table: string) {
    this.pool = pool;
    this.ownsPool = ownsPool;
    this.streamName = streamName;
    this.table = table;
    this.rows = new CheckpointTable(table);
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
      await store.rows.create(pool);
    } catch (error) {
      if (owns) await pool.end().catch(() => undefined);
      throw new LedgerRxError(ErrorCodes.CHECKPOINT_STORE_FAILED, `cannot create checkpoint table ${table}`, { cause: error });
    }
    return store;
  }

  async load(): Promise<Checkpoint | undefined> {
    try {
      return await this.rows.load(this.pool, this.streamName);
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
      await this.rows.save(client, this.streamName, checkpoint);
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
      if ((await this.rows.lock(client, this.streamName)) >= checkpoint.offset) {
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
