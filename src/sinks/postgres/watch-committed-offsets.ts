import type { Client } from 'pg';
import { Observable } from 'rxjs';
import type { SqlQueryable } from '../../checkpoints/sql-database.js';
import { storeChannel } from './store-channel.js';

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
  const channel = storeChannel(schema, streamName);
  return new Observable<number>((subscriber) => {
    if (!identifier.test(schema)) {
      subscriber.error(new RangeError(`schema must be a plain lower-case SQL identifier, got '${schema}'`));
      return undefined;
    }
    let last = -1;
    let closed = false;
    const emit = (offset: number | undefined) => {
      if (offset === undefined || !Number.isFinite(offset) || offset <= last || closed) return;
      last = offset;
      subscriber.next(offset);
    };
    if ('listen' in source) {
      let stop: (() => Promise<void>) | undefined;
      source
        .listen(channel, (payload) => emit(Number(payload)))
        .then(async (unlisten) => {
          stop = unlisten;
          if (closed) return void (await unlisten());
          options.onStatus?.({ type: 'listening' });
          emit(await storedOffset(source.database, schema, streamName));
        })
        .catch((error: unknown) => subscriber.error(error));
      return () => {
        closed = true;
        void stop?.().catch(() => undefined);
      };
    }
    let client: Client | undefined;
    let timer: NodeJS.Timeout | undefined;
    const reconnectDelayMs = options.reconnectDelayMs ?? 500;
    const lost = (error: unknown, from: Client) => {
      if (closed || client !== from) return;
      client = undefined;
      void from.end().catch(() => undefined);
      options.onStatus?.({ type: 'connection-lost', error, retryInMs: reconnectDelayMs });
      timer = setTimeout(() => void connect(), reconnectDelayMs);
    };
    const connect = async () => {
      const pg = await import('pg');
      if (closed) return;
      const c = new pg.default.Client({ connectionString: source.url, keepAlive: true });
      client = c;
      c.on('error', (error) => lost(error, c));
      c.on('end', () => lost(new Error('the connection ended'), c));
      c.on('notification', (n) => {
        if (n.channel === channel) emit(Number(n.payload));
      });
      try {
        await c.connect();
        await c.query(`LISTEN ${channel}`);
        if (closed) return;
        options.onStatus?.({ type: 'listening' });
        emit(await storedOffset(c, schema, streamName));
      } catch (error) {
        // refused or cut while starting: like a lost connection, tried again
        lost(error, c);
      }
    };
    void connect();
    return () => {
      closed = true;
      if (timer) clearTimeout(timer);
      void client?.end().catch(() => undefined);
    };
  });
}
