import type { Pool } from 'pg';
import { CheckpointTable } from '../../checkpoints/checkpoint-table.js';
import { pgSqlDatabase } from '../../checkpoints/pg-sql-database.js';
import type { SqlDatabase, SqlQueryable } from '../../checkpoints/sql-database.js';
import { ErrorCodes } from '../../errors/error-codes.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { LedgerRxError } from '../../errors/ledger-rx-error.js';
import type { JsGetActiveContractsResponse } from '../../schemas/index.js';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import type { LedgerSink, SinkCommit, SinkPosition } from '../ledger-sink.js';
import type { SnapshotBootstrap, SnapshotSink } from '../snapshot-sink.js';
import type { Dar } from '../../daml/read-dar.js';
import { acquireStreamLock } from './acquire-stream-lock.js';
import { createTypedViews, type TypedViewOutcome } from './create-typed-views.js';
import { typedViewDefinitions } from './typed-view-definitions.js';
import type { StreamLease } from './stream-lease.js';
import { IngestBatch } from './ingest-batch.js';
import type { ActiveContractRow, InterfaceViewRow } from './ingest-rows.js';
import { mapSnapshotRow } from './map-snapshot-row.js';
import { runMigrations } from './run-migrations.js';
import { pgArrayLiteral } from './pg-array-literal.js';
import { scopeChannel } from './scope-channel.js';
import { storeChannel } from './store-channel.js';
import { sameScope, type StreamScope } from './stream-scope.js';
import { insertActiveContracts } from './write/insert-active-contracts.js';
import { insertInterfaceViews } from './write/insert-interface-views.js';
import { BatchScript } from './write/batch-script.js';
import { isPglite, pgliteSqlDatabase } from './pglite-sql-database.js';

/**
 * Takes a stream's writer lock and resolves with its {@link StreamLease} (the sink commits through the
 * lease's session); calls `onWaiting` once if another process holds it. See {@link PostgresSinkOptions.lock}.
 */
export type StreamLock = (signal?: AbortSignal, onWaiting?: () => void) => Promise<StreamLease>;

/** What a {@link PostgresSink} reports while it starts and runs (for logs and metrics). */
export type PostgresSinkStatus =
  | { readonly type: 'schema-ready'; readonly version: number; readonly applied: readonly number[] }
  /** The typed views of the `dars` option, created or replaced (docs/query-store.md, "Typed views"). */
  | { readonly type: 'typed-views'; readonly views: readonly TypedViewOutcome[] }
  | { readonly type: 'waiting-for-lock' }
  | { readonly type: 'locked'; readonly waitedMs: number }
  | { readonly type: 'lock-lost'; readonly error: unknown }
  | { readonly type: 'idle-connection-failed'; readonly error: unknown };

/** Options of {@link PostgresSink}. */
export interface PostgresSinkOptions {
  /**
   * Where to write: a {@link SqlDatabase} whose connections use `schema` as their `search_path` and that runs
   * scripts (`script`: the batches are COPY scripts): `pgSqlDatabase(pool)` adapts a pg pool, a PGlite instance
   * fits as it is (the sink adapts it). The sink does not close it.
   */
  readonly database: SqlDatabase;
  /** Schema of the tables (a plain lower-case SQL identifier), brought up to date by `start`. */
  readonly schema: string;
  /** Name of the stream: its checkpoint row and the `stream_name` of its rows. */
  readonly streamName: string;
  /**
   * Taken by `start` after the migrations and held until `close`: one writer per stream. The commits then
   * run on the lease's session, and when that session is lost the sink fails (`lock-lost`). Default: none.
   */
  readonly lock?: StreamLock | undefined;
  /**
   * DARs whose templates and interfaces get a typed SQL view each (`"Module.Entity"`: one column per field in
   * its SQL type, the stream's active contracts), created or replaced by `start` after the migrations
   * (docs/query-store.md, "Typed views"). Default: none.
   */
  readonly dars?: readonly Dar[] | undefined;
  /**
   * What the stream stores (its parties, templates and interfaces), recorded with the stream's first commit, so that
   * a later start can compare it (`recordedScope`) and `changeScope` (docs/query-store.md, "Scope changes").
   * Default: not recorded.
   */
  readonly scope?: StreamScope | undefined;
  readonly onStatus?: ((status: PostgresSinkStatus) => void) | undefined;
}

/** What {@link PostgresSink.changeScope} does besides recording the scope. */
export interface ScopeChangeOptions {
  /** The active-contract snapshot at the change's offset, read with the new filter: what the widened scope adds. */
  readonly backfill?: AsyncIterable<readonly JsGetActiveContractsResponse[]> | undefined;
  /** Remove from `active_contracts` what the narrowed scope no longer covers. */
  readonly removeOutside?: boolean | undefined;
  /** The scope of the flags of the start that sets this scope, recorded as `flags` (kept as it was when absent). */
  readonly flags?: StreamScope | undefined;
  /**
   * Clear a pending request (`wanted`) even when it asked for another scope: flags that changed at a start set the
   * scope and supersede it. Without it, `wanted` is cleared only when it is the scope recorded now (applied).
   */
  readonly supersedeRequest?: boolean | undefined;
}

/**
 * A stream's row of `ledger_rx_stream_scopes` (docs/query-store.md, "Scope changes without a re-seed"): the scope it
 * stores, the one asked for and not applied yet (`null`: none), and the scope of the flags that last set it
 * (`null`: recorded before version 11, when the flags were always the scope).
 */
export interface StoredScope {
  readonly scope: StreamScope;
  readonly wanted: StreamScope | null;
  readonly flags: StreamScope | null;
}

/** What {@link PostgresSink.changeScope} did: contracts added to and removed from `active_contracts`. */
export interface ScopeChangeOutcome {
  readonly backfilled: number;
  readonly removed: number;
}

/** Options of {@link PostgresSink.connect}. */
export interface PostgresSinkConnectOptions {
  /** PostgreSQL connection URL. */
  readonly url: string;
  /** Default `public`. */
  readonly schema?: string | undefined;
  /** Default `default`. */
  readonly streamName?: string | undefined;
  /**
   * How long `start` waits for another process writing the same stream to stop. Default 15 000 ms;
   * `Infinity` makes a standby that takes over when the other process's session ends.
   */
  readonly lockWaitMs?: number | undefined;
  /**
   * A writer whose lock session falls silent this long (hung, cut off) loses the lock to a standby: the
   * server ends its session (see `acquireStreamLock`). Default 10 000 ms.
   */
  readonly leaseMs?: number | undefined;
  /** See {@link PostgresSinkOptions.dars}. */
  readonly dars?: readonly Dar[] | undefined;
  /** See {@link PostgresSinkOptions.scope}. */
  readonly scope?: StreamScope | undefined;
  readonly onStatus?: ((status: PostgresSinkStatus) => void) | undefined;
}

const identifier = /^[a-z_][a-z0-9_]*$/;
const checkpoints = new CheckpointTable('ledger_rx_checkpoints');

/**
 * The {@link LedgerSink} of `ledger-rx ingest`: the update stream as rows of PostgreSQL tables (see
 * `migrations`: `updates`, the event tables, `active_contracts`) with the stream's checkpoint row in
 * `ledger_rx_checkpoints`, exactly once.
 *
 * - `start` runs the migrations of `schema` (idempotent, serialized by an advisory lock), creates or replaces
 *   the typed views of `dars` (`createTypedViews`), takes the
 *   stream `lock` when one is given (reporting `waiting-for-lock` while another process holds it), and
 *   resolves with the stream's checkpoint (`undefined` for a new stream);
 * - `add` (or `write`) maps each element to rows (`mapUpdateRows`, netting the active-contract changes per batch) and
 *   encodes them for COPY at once (`IngestBatch`), so the elements need not be kept (`BatchCommitter` hands them
 *   over one by one as they are read);
 * - `commit(position)` writes those rows (COPY into the event tables and `active_contracts`) AND moves the
 *   checkpoint row to `position`, in one transaction that first locks the checkpoint row (`BatchScript`, sent as
 *   one script: one round trip to a server): when the stored offset is already at or beyond `position` (the batch
 *   was committed before a crash) nothing is written and the commit resolves with `applied: false`. So a crash at
 *   any moment followed by a restart leaves exactly the rows of the ledger — no gap, no duplicate. A commit
 *   prepares its script at once and runs it after the commits before it, in call order; after a failed one,
 *   later commits reject with its error.
 * - Across writers (a standby taking over): with a `lock`, commits run on the session that holds it, so a
 *   writer that lost its lock (its session ended) cannot commit any more; the sink reports `lock-lost` and
 *   fails. And a commit that finds the checkpoint row neither where its batch starts nor at or past its end
 *   (another writer stored part of the batch) rejects with `SINK_CONFLICT` instead of writing.
 *
 * - `bootstrap(offset, chunks)` (a {@link SnapshotSink}: a new stream that starts from the active-contract
 *   snapshot): in ONE transaction that first locks the checkpoint row, inserts the snapshot's active contracts
 *   chunk by chunk as it reads them (`active_contracts.origin` = `snapshot`; one multi-row statement per
 *   chunk), records the snapshot in `ledger_rx_snapshots` and moves the checkpoint row to `offset`. A
 *   failure or a crash before the commit leaves nothing of it (a failed `bootstrap` may be called again);
 *   a stream that already has a position is refused with `SINK_CONFLICT`.
 *
 * Every commit that stores something (a batch, a snapshot) notifies `channel` (`storeChannel(schema,
 * streamName)`) with its offset in the same transaction, so listeners hear of it exactly when it is visible
 * (`watchCommittedOffsets`).
 *
 * The SQL runs through {@link SqlDatabase} only, so an embedded PostgreSQL (PGlite) reuses it as it is.
 */
export class PostgresSink implements LedgerSink, SnapshotSink {
  readonly schema: string;
  readonly streamName: string;
  /** The channel each commit notifies with its offset (`storeChannel(schema, streamName)`). */
  readonly channel: string;
  private readonly options: PostgresSinkOptions;
  /** `options.database`, able to run scripts. */
  private readonly database: SqlDatabase;
  private staged: IngestBatch;
  /** Templates and choices stored by this sink's committed batches (`BatchScript.steps` notes the others). */
  private readonly notedTemplates = new Set<string>();
  private readonly notedChoices = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  private failed: { error: unknown } | undefined;
  private lease: StreamLease | undefined;
  /**
   * Where this sink's next batch starts (exclusive): the position it loaded or last committed (or skipped),
   * -1 for a new stream. A commit expects the checkpoint row there.
   */
  private after = -1;
  private starting: Promise<unknown> | undefined;
  private readonly onClose: () => Promise<void>;

  constructor(options: PostgresSinkOptions, onClose: () => Promise<void> = async () => undefined) {
    if (!identifier.test(options.schema)) throw new InvalidArgumentError('schema', `must be a plain lower-case SQL identifier, got '${options.schema}'`);
    if (options.streamName === '') throw new InvalidArgumentError('streamName', 'must not be empty');
    const database = options.database.script !== undefined ? options.database : isPglite(options.database) ? pgliteSqlDatabase(options.database) : undefined;
    if (database === undefined) throw new InvalidArgumentError('database', 'must run scripts (SqlDatabase.script): use pgSqlDatabase(pool) or a PGlite instance');
    this.database = database;
    this.options = options;
    this.schema = options.schema;
    this.streamName = options.streamName;
    this.staged = new IngestBatch(options.streamName);
    this.channel = storeChannel(options.schema, options.streamName);
    this.onClose = onClose;
  }

  /**
   * A sink on a new pg pool (4 connections, `search_path` = `schema`) with the advisory stream lock
   * (`acquireStreamLock`, waiting up to `lockWaitMs`); `close()` releases the lock and ends the pool. pg is
   * loaded only here.
   */
  static async connect(options: PostgresSinkConnectOptions): Promise<PostgresSink> {
    const schema = options.schema ?? 'public';
    if (!identifier.test(schema)) throw new InvalidArgumentError('schema', `must be a plain lower-case SQL identifier, got '${schema}'`);
    const pg = await import('pg');
    const pool: Pool = new pg.default.Pool({ connectionString: options.url, max: 4, options: `-c search_path=${schema}`, keepAlive: true, keepAliveInitialDelayMillis: 5_000 });
    pool.on('error', (error) => options.onStatus?.({ type: 'idle-connection-failed', error }));
    const streamName = options.streamName ?? 'default';
    const lockWaitMs = options.lockWaitMs ?? 15_000;
    return new PostgresSink(
      {
        database: pgSqlDatabase(pool),
        schema,
        streamName,
        lock: (signal, onWaiting) => acquireStreamLock(pool, schema, streamName, { waitMs: lockWaitMs, leaseMs: options.leaseMs, signal, onWaiting }),
        dars: options.dars,
        scope: options.scope,
        onStatus: options.onStatus,
      },
      () => pool.end(),
    );
  }

  start(signal?: AbortSignal): Promise<SinkPosition | undefined> {
    const started = this.prepare(signal);
    this.starting = started.catch(() => undefined);
    return started;
  }

  private async prepare(signal: AbortSignal | undefined): Promise<SinkPosition | undefined> {
    const { lock, onStatus, dars } = this.options;
    const database = this.database;
    const migrated = await runMigrations(database, this.schema);
    onStatus?.({ type: 'schema-ready', version: migrated.version, applied: migrated.applied });
    if (signal?.aborted) throw signal.reason;
    if (dars !== undefined && dars.length > 0) {
      const views = await createTypedViews(database, this.schema, typedViewDefinitions(dars));
      onStatus?.({ type: 'typed-views', views });
      if (signal?.aborted) throw signal.reason;
    }
    if (lock) {
      const since = performance.now();
      const lease = await lock(signal, () => onStatus?.({ type: 'waiting-for-lock' }));
      this.lease = lease;
      onStatus?.({ type: 'locked', waitedMs: performance.now() - since });
      void lease.lost.then((cause) => {
        if (this.lease !== lease) return;
        this.failed ??= { error: new LedgerRxError(ErrorCodes.SINK_CONFLICT, `lost the lock of stream '${this.streamName}': ${cause.message}`, { cause }) };
        onStatus?.({ type: 'lock-lost', error: cause });
      });
    }
    try {
      const loaded = await checkpoints.load(this.lease?.database ?? database, this.streamName);
      this.after = loaded?.offset ?? -1;
      return loaded;
    } catch (error) {
      if (error instanceof LedgerRxError) throw error;
      throw new LedgerRxError(ErrorCodes.CHECKPOINT_STORE_FAILED, `cannot load checkpoint ${this.streamName}`, { cause: error });
    }
  }

  write(elements: readonly JsGetUpdatesResponse[]): Promise<void> {
    try {
      for (const element of elements) this.add(element);
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve();
  }

  /**
   * Encodes `element` into the open batch at once (`IngestBatch`: nothing keeps the element). An element the
   * batch cannot take (out of offset order) fails the sink: the open batch is never committed.
   */
  add(element: JsGetUpdatesResponse): void {
    if (this.failed) throw this.failed.error;
    try {
      this.staged.add(element);
    } catch (error) {
      this.failed ??= { error };
      throw error;
    }
  }

  commit(position: SinkPosition): Promise<SinkCommit> {
    const batch = this.staged;
    this.staged = new IngestBatch(this.streamName);
    // the rows' part of the script is made now, while the commits before it may still run
    const script = new BatchScript(batch);
    const run = this.queue.then(() => {
      if (this.failed) throw this.failed.error;
      return this.store(batch, script, position);
    });
    this.queue = run.catch((error: unknown) => {
      this.failed ??= { error };
    });
    return run;
  }

  bootstrap(offset: number, chunks: AsyncIterable<readonly JsGetActiveContractsResponse[]>): Promise<SnapshotBootstrap> {
    const run = this.queue.then(async () => {
      if (this.failed) throw this.failed.error;
      const stored = await this.storeSnapshot(offset, chunks);
      this.after = offset;
      return stored;
    });
    // a failed snapshot was rolled back whole: the stream is still new, and may try again
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Inserts the active contracts of snapshot `chunks` (`origin` `snapshot`; a contract already there is kept) with
   * their interface views, then copies the snapshot's contracts into `ledger_rx_snapshot_contracts` (kept after
   * they are archived, so the query functions answer for every offset from the snapshot's on: docs/query-store.md).
   */
  private async insertSnapshot(tx: SqlQueryable, chunks: AsyncIterable<readonly JsGetActiveContractsResponse[]>): Promise<{ entries: number; incompleteUnassigned: number }> {
    let entries = 0;
    let incompleteUnassigned = 0;
    for await (const chunk of chunks) {
      const rows: ActiveContractRow[] = [];
      const views: InterfaceViewRow[] = [];
      for (const entry of chunk) {
        entries++;
        const mapped = mapSnapshotRow(entry);
        if (mapped.kind === 'active') {
          rows.push(mapped.row);
          for (const v of mapped.views) views.push(v);
        } else if (mapped.kind === 'in-flight') incompleteUnassigned++;
      }
      await insertActiveContracts(tx, this.streamName, rows, 'snapshot');
      await insertInterfaceViews(tx, this.streamName, views);
    }
    await tx.query(
      `INSERT INTO ledger_rx_snapshot_contracts
         SELECT stream_name, contract_id, template_id, package_name, create_argument, contract_key, signatories, observers, created_offset, created_at,
                synchronizer_id, reassignment_counter
           FROM active_contracts WHERE stream_name = $1 AND origin = 'snapshot'
         ON CONFLICT DO NOTHING`,
      [this.streamName],
    );
    return { entries, incompleteUnassigned };
  }

  /** Records the sink's `scope` for a stream that has none yet (with its first commit). */
  private async recordFirstScope(tx: SqlQueryable): Promise<void> {
    if (this.options.scope === undefined) return;
    await tx.query(`INSERT INTO ledger_rx_stream_scopes (stream_name, scope, updated_at, flags) VALUES ($1, $2::jsonb, now(), $2::jsonb) ON CONFLICT DO NOTHING`, [
      this.streamName,
      JSON.stringify(this.options.scope),
    ]);
  }

  /** The scope recorded for the stream (`undefined`: none, e.g. a store written before version 8, or a new stream). */
  async recordedScope(): Promise<StreamScope | undefined> {
    const db = this.lease?.database ?? this.database;
    const rows = (await db.query<{ scope: StreamScope }>('SELECT scope FROM ledger_rx_stream_scopes WHERE stream_name = $1', [this.streamName])).rows;
    return rows[0]?.scope;
  }

  /** The stream's row of `ledger_rx_stream_scopes`: its scope, a pending request, the flags that set it (`undefined`: none recorded). */
  async storedScope(): Promise<StoredScope | undefined> {
    // on the pool, not the lease's session: a running ingester asks while a commit may be running there
    const db = this.options.database;
    const rows = (await db.query<StoredScope>('SELECT scope, wanted, flags FROM ledger_rx_stream_scopes WHERE stream_name = $1', [this.streamName])).rows;
    const row = rows[0];
    return row === undefined ? undefined : { scope: row.scope, wanted: row.wanted ?? null, flags: row.flags ?? null };
  }

  /**
   * Changes the stream's scope at its current position `offset` (docs/query-store.md, "Scope changes"), in ONE
   * transaction that first locks the checkpoint row and requires it at `offset` (else `SINK_CONFLICT`): with
   * `backfill` (the active-contract snapshot at `offset` read with the NEW filter) inserts the contracts
   * `active_contracts` does not hold yet, as a snapshot does; with `removeOutside`, deletes the rows of
   * `active_contracts` that `scope` no longer covers (no party of its parties a signatory or observer; a template
   * not among its templates, when it names templates and no interfaces); records `scope` (with `flags` when given),
   * clears a pending request that asked for it (any pending request with `supersedeRequest`), and records the change
   * when the scope differs. A failure or a crash before the commit leaves nothing of it, so a restart does it again,
   * once. The checkpoint does not move: the updates after `offset` follow with the new filter. Called by the
   * running ingester between two batches for a live change (`ingest`'s `applyLiveScope`), and before the read at a
   * start.
   */
  changeScope(offset: number, scope: StreamScope, options: ScopeChangeOptions = {}): Promise<ScopeChangeOutcome> {
    const run = this.queue.then(() => {
      if (this.failed) throw this.failed.error;
      return (this.lease?.database ?? this.database).transaction(async (tx) => {
        const stored = await checkpoints.lock(tx, this.streamName);
        if (stored !== offset || this.after !== offset) {
          throw new LedgerRxError(ErrorCodes.SINK_CONFLICT, `the checkpoint of stream '${this.streamName}' is at ${stored}, not at ${offset} where its scope changes`);
        }
        const count = async () =>
          Number((await tx.query<{ n: string | number }>('SELECT count(*) AS n FROM active_contracts WHERE stream_name = $1', [this.streamName])).rows[0]?.n ?? 0);
        const before = await count();
        if (options.backfill !== undefined) await this.insertSnapshot(tx, options.backfill);
        const backfilled = (await count()) - before;
        let removed = 0;
        if (options.removeOutside === true) {
          const rows = await tx.query<{ n: string | number }>(
            `WITH gone AS (
               DELETE FROM active_contracts a WHERE a.stream_name = $1 AND (
                 ($2::text[] IS NOT NULL AND NOT ((a.signatories || a.observers) && $2::text[]))
                 OR (cardinality($3::text[]) > 0 AND cardinality($4::text[]) = 0
                     AND NOT ('#' || a.package_name || ':' || split_part(a.template_id, ':', 2) || ':' || split_part(a.template_id, ':', 3)) = ANY ($3::text[])))
               RETURNING 1)
             SELECT count(*) AS n FROM gone`,
            [this.streamName, scope.parties === null ? null : pgArrayLiteral([...scope.parties]), pgArrayLiteral([...scope.templates]), pgArrayLiteral([...scope.interfaces])],
          );
          removed = Number(rows.rows[0]?.n ?? 0);
        }
        const previous = (await tx.query<{ scope: StreamScope }>('SELECT scope FROM ledger_rx_stream_scopes WHERE stream_name = $1', [this.streamName])).rows[0]?.scope;
        // the row is locked only now, at the end: a `requestScopeChange` waits for this commit, not for the backfill
        await tx.query(
          `INSERT INTO ledger_rx_stream_scopes AS s (stream_name, scope, updated_at, flags) VALUES ($1, $2::jsonb, now(), $3::jsonb)
           ON CONFLICT (stream_name) DO UPDATE SET scope = EXCLUDED.scope, updated_at = EXCLUDED.updated_at, flags = coalesce(EXCLUDED.flags, s.flags),
             wanted = CASE WHEN $4 OR s.wanted = EXCLUDED.scope THEN NULL ELSE s.wanted END,
             wanted_at = CASE WHEN $4 OR s.wanted = EXCLUDED.scope THEN NULL ELSE s.wanted_at END`,
          [this.streamName, JSON.stringify(scope), options.flags === undefined ? null : JSON.stringify(options.flags), options.supersedeRequest === true],
        );
        // whoever waits for a requested change to be applied (`store scope --wait`) hears of it when this commits
        await tx.query('SELECT pg_notify($1, $2)', [scopeChannel(this.schema, this.streamName), 'changed']);
        if (previous !== undefined && sameScope(previous, scope)) return { backfilled, removed };
        await tx.query(
          `INSERT INTO ledger_rx_scope_changes (stream_name, ledger_offset, scope_before, scope_after, backfilled, removed, changed_at)
           VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6, now())`,
          [this.streamName, offset, previous === undefined ? null : JSON.stringify(previous), JSON.stringify(scope), backfilled, removed],
        );
        return { backfilled, removed };
      });
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private storeSnapshot(offset: number, chunks: AsyncIterable<readonly JsGetActiveContractsResponse[]>): Promise<SnapshotBootstrap> {
    return (this.lease?.database ?? this.database).transaction(async (tx) => {
      const stored = await checkpoints.lock(tx, this.streamName);
      if (stored !== -1 || this.after !== -1) {
        throw new LedgerRxError(
          ErrorCodes.SINK_CONFLICT,
          `stream '${this.streamName}' already has a position (${Math.max(stored, this.after)}): only a new stream starts from a snapshot`,
        );
      }
      const { entries, incompleteUnassigned } = await this.insertSnapshot(tx, chunks);
      const contracts = Number(
        (await tx.query<{ n: string | number }>(`SELECT count(*) AS n FROM active_contracts WHERE stream_name = $1`, [this.streamName])).rows[0]?.n ?? 0,
      );
      await tx.query(
        `INSERT INTO ledger_rx_snapshots (stream_name, snapshot_offset, contracts, incomplete_unassigned, taken_at) VALUES ($1, $2, $3, $4, now())
         ON CONFLICT (stream_name) DO UPDATE SET snapshot_offset = EXCLUDED.snapshot_offset, contracts = EXCLUDED.contracts,
           incomplete_unassigned = EXCLUDED.incomplete_unassigned, taken_at = EXCLUDED.taken_at`,
        [this.streamName, offset, contracts, incompleteUnassigned],
      );
      await this.recordFirstScope(tx);
      try {
        await checkpoints.save(tx, this.streamName, { offset, synchronizerTimes: [], updatedAt: new Date().toISOString() });
      } catch (error) {
        throw new LedgerRxError(ErrorCodes.CHECKPOINT_STORE_FAILED, `cannot save checkpoint ${this.streamName} at ${offset}`, { cause: error });
      }
      await tx.query('SELECT pg_notify($1, $2)', [this.channel, String(offset)]);
      return { entries, contracts, incompleteUnassigned };
    });
  }

  private async store(batch: IngestBatch, script: BatchScript, position: SinkPosition): Promise<SinkCommit> {
    const after = this.after;
    const steps = script.steps({
      after,
      position,
      updatedAt: new Date().toISOString(),
      channel: this.channel,
      firstScopeJson: this.options.scope === undefined ? undefined : JSON.stringify(this.options.scope),
      notedTemplates: this.notedTemplates,
      notedChoices: this.notedChoices,
    });
    const db = this.lease?.database ?? this.database;
    try {
      if (db.script === undefined) throw new InvalidArgumentError('database', 'must run scripts (SqlDatabase.script)');
      await db.script(steps);
    } catch (error) {
      const { code, detail } = error as { code?: unknown; detail?: unknown };
      if (code === 'LRX01') {
        // stored before (a batch read again after a restart): nothing was written twice
        this.after = position.offset;
        return { applied: false, updates: 0, bytes: 0 };
      }
      if (code === 'LRX02') {
        throw new LedgerRxError(
          ErrorCodes.SINK_CONFLICT,
          `the checkpoint of stream '${this.streamName}' is at ${String(detail)}, not at ${after} where this batch starts: another process writes this stream`,
          { cause: error },
        );
      }
      throw error;
    }
    this.after = position.offset;
    for (const t of batch.templates) this.notedTemplates.add(t.templateId);
    for (const c of batch.choices) this.notedChoices.add(BatchScript.choiceKey(c.templateId, c.choice));
    return { applied: true, updates: batch.updates, bytes: batch.bytes };
  }

  /**
   * The stream's stored update with the greatest offset at or below `atOrBelow` (its offset and update id), or
   * `undefined` when there is none: what `ingest` compares with the participant's update at that offset before it
   * resumes, to refuse a store filled from another ledger (docs/query-store.md).
   */
  async storedUpdateAtOrBelow(atOrBelow: number): Promise<{ readonly offset: number; readonly updateId: string } | undefined> {
    const rows = (
      await (this.lease?.database ?? this.database).query<{ o: string | number; u: string }>(
        `SELECT ledger_offset AS o, update_id AS u FROM updates WHERE stream_name = $1 AND ledger_offset <= $2 ORDER BY ledger_offset DESC LIMIT 1`,
        [this.streamName, atOrBelow],
      )
    ).rows;
    const row = rows[0];
    return row === undefined ? undefined : { offset: Number(row.o), updateId: row.u };
  }

  /**
   * Releases the stream lock (and ends the pool of {@link PostgresSink.connect}); called while `start` is
   * still running (an abandoned start), it first waits for `start` to end, so a lock taken late is released.
   */
  async close(): Promise<void> {
    await this.starting;
    const lease = this.lease;
    this.lease = undefined;
    try {
      await lease?.release();
    } finally {
      await this.onClose();
    }
  }
}
