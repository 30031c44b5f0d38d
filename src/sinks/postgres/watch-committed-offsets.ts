import { defer, filter, tap, throwError, type Observable } from 'rxjs';
import type { SqlQueryable } from '../../checkpoints/sql-database.js';
import { storeChannel } from './store-channel.js';
import { watchStoreChannel } from './watch-store-channel.js';

/** Where {@link watchCommittedOffsets} listens. */
export type CommittedOffsetsSource =
  /** A PostgreSQL server: a dedicated connection of its own (pg, loaded on subscription), reconnected when lost. */
  | { readonly url: string }
  /**
   * An embedded store open in this process (`openEmbeddedPostgres`: its `listen` and `database`). PGlite serves one
   * process, so this is how the ingesting process itself (or a library user sharing its instance) watches it.
   */
  | { readonly listen: (channel: string, callback: (payload: string) => void) => Promise<() => Promise<void>>; readonly database: SqlQueryable };

/** What {@link watchCommittedOffsets} reports besides the offsets. */
export type WatchStatus = { readonly type: 'listening' } | { readonly type: 'connection-lost'; readonly error: unknown; readonly retryInMs: number };

/** Options of {@link watchCommittedOffsets}. */
export interface WatchCommittedOffsetsOptions {
  /** Schema of the store. Default `public`. */
  readonly schema?: string | undefined;
  /** Default `default`. */
  readonly streamName?: string | undefined;
  /** Wait before reconnecting a lost server connection. Default 500 ms. */
  readonly reconnectDelayMs?: number | undefined;
  readonly onStatus?: ((status: WatchStatus) => void) | undefined;
}

const identifier = /^[a-z_][a-z0-9_]*$/;

async function storedOffset(db: SqlQueryable, schema: string, streamName: string): Promise<number | undefined> {
  try {
    const rows = (await db.query<{ o: string | number }>(`SELECT ledger_offset AS o FROM ${schema}.ledger_rx_checkpoints WHERE stream_name = $1`, [streamName])).rows;
    return rows[0] === undefined ? undefined : Number(rows[0].o);
  } catch (error) {
    if ((error as { code?: unknown }).code === '42P01') return undefined; // no store there yet
    throw error;
  }
}

/**
 * The offsets a `PostgresSink` commits for one stream, pushed by PostgreSQL (`LISTEN` on
 * `storeChannel(schema, streamName)`, which each commit notifies in its own transaction), not polled; see
 * docs/query-store.md "Changes pushed".
 *
 * On subscription it listens, then reads the stream's checkpoint and emits it (when the stream has one), then
 * emits each committed offset as it is notified. Offsets strictly increase: one at or below the last emitted is
 * dropped. Several commits may be announced by their last offset only (after a reconnection: the checkpoint read
 * then), so it tells what the store holds now, not every batch. On a server, a lost connection is reported
 * (`connection-lost`) and opened again after `reconnectDelayMs`, for as long as the subscription lasts; it never
 * completes by itself, and errors only when a query fails on a live connection (a missing store is no error: it
 * emits once the stream commits). Unsubscribing closes the connection (or stops listening on an embedded store).
 */
export function watchCommittedOffsets(source: CommittedOffsetsSource, options: WatchCommittedOffsetsOptions = {}): Observable<number> {
  const schema = options.schema ?? 'public';
  const streamName = options.streamName ?? 'default';
  if (!identifier.test(schema)) return throwError(() => new RangeError(`schema must be a plain lower-case SQL identifier, got '${schema}'`));
  return defer(() => {
    let last = -1;
    return watchStoreChannel<number>(source, {
      channel: storeChannel(schema, streamName),
      current: (db) => storedOffset(db, schema, streamName),
      fromPayload: (payload) => Number(payload),
      reconnectDelayMs: options.reconnectDelayMs,
      onStatus: options.onStatus,
    }).pipe(
      filter((offset) => Number.isFinite(offset) && offset > last),
      tap((offset) => (last = offset)),
    );
  });
}
