import type { Client } from 'pg';
import { Observable } from 'rxjs';
import type { SqlQueryable } from '../../checkpoints/sql-database.js';
import type { CommittedOffsetsSource as StoreChannelSource, WatchStatus as StoreChannelStatus } from './watch-committed-offsets.js';

/** How {@link watchStoreChannel} turns the channel into values. */
export interface StoreChannelWatch<T> {
  readonly channel: string;
  /** Read once listening (after each reconnection too), on the listening connection: what holds now, or nothing. */
  readonly current: (db: SqlQueryable) => Promise<T | undefined>;
  /** A notification's payload as a value, or nothing. */
  readonly fromPayload: (payload: string) => T | undefined;
  /** Wait before reconnecting a lost server connection. Default 500 ms. */
  readonly reconnectDelayMs?: number | undefined;
  readonly onStatus?: ((status: StoreChannelStatus) => void) | undefined;
}

/**
 * `LISTEN` on a store's channel (internal: the shared part of `watchCommittedOffsets` and of a running ingest's scope
 * requests). On subscription it listens, then emits `current` of the listening connection (when defined), then a value
 * per notification (`fromPayload`, when defined), so nothing notified after the listen began is missed. On a server, a
 * lost connection (or a failure while starting to listen, `current` included) is reported (`connection-lost`) and
 * opened again after `reconnectDelayMs`, for as long as the subscription lasts, with `current` read again; it never
 * completes by itself. On an embedded store, a failure to listen or of `current` is the Observable's error.
 * Unsubscribing closes the connection (or stops listening).
 */
export function watchStoreChannel<T>(source: StoreChannelSource, watch: StoreChannelWatch<T>): Observable<T> {
  const { channel, current, fromPayload, onStatus } = watch;
  return new Observable<T>((subscriber) => {
    let closed = false;
    const emit = (value: T | undefined) => {
      if (value !== undefined && !closed) subscriber.next(value);
    };
    if ('listen' in source) {
      let stop: (() => Promise<void>) | undefined;
      source
        .listen(channel, (payload) => emit(fromPayload(payload)))
        .then(async (unlisten) => {
          stop = unlisten;
          if (closed) return void (await unlisten());
          onStatus?.({ type: 'listening' });
          emit(await current(source.database));
        })
        .catch((error: unknown) => subscriber.error(error));
      return () => {
        closed = true;
        void stop?.().catch(() => undefined);
      };
    }
    let client: Client | undefined;
    let timer: NodeJS.Timeout | undefined;
    const reconnectDelayMs = watch.reconnectDelayMs ?? 500;
    const lost = (error: unknown, from: Client) => {
      if (closed || client !== from) return;
      client = undefined;
      void from.end().catch(() => undefined);
      onStatus?.({ type: 'connection-lost', error, retryInMs: reconnectDelayMs });
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
        if (n.channel === channel) emit(fromPayload(n.payload ?? ''));
      });
      try {
        await c.connect();
        await c.query(`LISTEN ${channel}`);
        if (closed) return;
        onStatus?.({ type: 'listening' });
        emit(await current(c));
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
