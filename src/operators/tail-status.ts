import type { UpdateKind } from '../updates/update-kind.js';
import type { Transport } from '../updates/transport.js';

/**
 * Elements delivered by a read, by kind (`updateKind`): updates (`Transaction`, `Reassignment`,
 * `TopologyTransaction`), `OffsetCheckpoint`s, and variants this version does not know.
 */
export type DeliveredCounts = { readonly [K in UpdateKind]: number };

/**
 * How a request to the participant ended: `ok` (its answer was read to the end), `error` (it failed; the
 * error is in the status), `cancelled` (the read stopped listening: unsubscribed, or past `endInclusive`).
 */
export type RequestOutcome = 'ok' | 'error' | 'cancelled';

/**
 * Status of a paged read, reported on a side channel (`onStatus`), never mixed into the data.
 *
 * - `resumed` (informational): a request chain (re)started from `fromOffset`; `attempt` is 0 at the start
 *   and the retry number after a failure (a reconnect).
 * - `retrying` (informational, actionable if frequent): a retryable error happened; the next attempt starts
 *   in `delayMs`.
 * - `caught-up` (informational): every update up to about the ledger end has been delivered; the tail now
 *   waits for new ones (long poll).
 * - `limit-lowered` (informational): the server answered 413; the page limit went from `from` to `to`.
 * - `idle-timeout-raised` (informational, worth a look if frequent): catch-up pages kept coming back empty
 *   although the participant had more to send (an update at or below the ledger end read before the page
 *   came with the next long poll: its first element is slower than the idle timeout); the
 *   catch-up `stream_idle_timeout_ms` went from `from` to `to`.
 * - `transport-selected` (informational; worth a look when it says a fallback): the read uses `transport`
 *   from now on: once at the start (`requested` is the `transport` option; with `'auto'`, `reason` says why
 *   transports were skipped: the participant's version does not have one, or the client's WebSocket fell
 *   back within the cool-off), and with `'auto'` again when the path or the participant does not carry that
 *   transport and the read fell back to the next one at once (`refused`: which one, and its error; `reason`:
 *   why, e.g. `WebSocket handshake got no answer within 3000 ms`, `upgrade answered 502 by a proxy (no
 *   Canton body)`).
 *
 * For metrics (frequent: at least once per request; `collectMetrics` in `ledger-rx/metrics` reads them):
 *
 * - `progress`: elements were delivered since the last `progress` (`delivered`, by kind), `bytes` of
 *   response body were read, and the read's position is now `offset`; `recordTime` is the record time of
 *   the last element that has one (an update's, or the latest of a checkpoint's synchronizer times).
 *   Reported when a request ends, and at most every second during a long one (a stream that stays open).
 * - `request`: a request ended (one HTTP page, one call of a paged read, one stream connection) with
 *   `outcome`, having brought `elements` elements in `durationMs`; `limit` is the page size it asked for.
 * - `ledger-end`: the read looked the ledger end up (a start at the ledger end, a bounded read deciding
 *   how to ask).
 *
 * `transport` names the way the elements came: `websocket`, `page` or `list` (see `Transport`).
 */
export type TailStatus =
  | { readonly type: 'resumed'; readonly fromOffset: number; readonly attempt: number; readonly transport: string }
  | {
      readonly type: 'transport-selected';
      readonly transport: Exclude<Transport, 'auto'>;
      readonly requested: Transport;
      readonly reason?: string;
      readonly refused?: { readonly transport: Exclude<Transport, 'auto'>; readonly error: unknown };
    }
  | { readonly type: 'retrying'; readonly attempt: number; readonly delayMs: number; readonly error: unknown }
  | { readonly type: 'caught-up'; readonly offset: number }
  | { readonly type: 'limit-lowered'; readonly from: number; readonly to: number }
  | { readonly type: 'idle-timeout-raised'; readonly from: number; readonly to: number }
  | {
      readonly type: 'progress';
      readonly transport: string;
      readonly delivered: DeliveredCounts;
      readonly bytes: number;
      readonly offset: number;
      readonly recordTime: string | undefined;
    }
  | {
      readonly type: 'request';
      readonly transport: string;
      readonly outcome: RequestOutcome;
      readonly elements: number;
      readonly limit: number | undefined;
      readonly durationMs: number;
      readonly error?: unknown;
    }
  | { readonly type: 'ledger-end'; readonly offset: number };
