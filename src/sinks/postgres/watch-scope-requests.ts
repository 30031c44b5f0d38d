import { map, throwError, type Observable } from 'rxjs';
import { scopeChannel } from './scope-channel.js';
import type { CommittedOffsetsSource, WatchCommittedOffsetsOptions } from './watch-committed-offsets.js';
import { watchStoreChannel } from './watch-store-channel.js';

const identifier = /^[a-z_][a-z0-9_]*$/;

/**
 * The scope-change requests of one stream, pushed by PostgreSQL (`LISTEN` on `scopeChannel(schema, streamName)`,
 * which `requestScopeChange` notifies in its transaction; docs/query-store.md, "Scope changes without a re-seed"):
 * emits once as soon as it listens (a request recorded before may be pending: look), then once per notification (and
 * once more after each reconnection of a lost server connection). It carries no request: read
 * `PostgresSink.storedScope()` (`wanted`) when it emits. Never completes by itself; the source and the reconnection
 * as for `watchCommittedOffsets`. A running `ingest` stops its read at the next batch boundary when it emits and a
 * change is pending.
 */
export function watchScopeRequests(source: CommittedOffsetsSource, options: WatchCommittedOffsetsOptions = {}): Observable<void> {
  const schema = options.schema ?? 'public';
  if (!identifier.test(schema)) return throwError(() => new RangeError(`schema must be a plain lower-case SQL identifier, got '${schema}'`));
  return watchStoreChannel(source, {
    channel: scopeChannel(schema, options.streamName ?? 'default'),
    current: () => Promise.resolve('look' as const),
    fromPayload: () => 'look' as const,
    reconnectDelayMs: options.reconnectDelayMs,
    onStatus: options.onStatus,
  }).pipe(map((): void => undefined));
}
