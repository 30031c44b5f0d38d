import type { Observable } from 'rxjs';
import type { CallOptions } from '../call-options.js';

/** One WebSocket connection of `streamUpdates`, as reported to `onOpen`. */
export interface StreamConnection {
  /**
   * When the token sent with this connection expires (the JWT's `exp`, epoch milliseconds; decoded, not
   * verified), or `undefined` when it is unknown. The participant ends the stream with
   * `ACCESS_TOKEN_EXPIRED` then; the operators reconnect shortly before.
   */
  readonly tokenExpiresAt: number | undefined;
}

/** Options of {@link LedgerClient.streamUpdates}. */
export interface StreamUpdatesOptions extends CallOptions {
  /** Validate each element against the wire schema. Default: the client's `validateResponses`. */
  readonly validate?: boolean | undefined;
  /** Keep each element's exact JSON text, readable with `elementText(element)`. Default false. */
  readonly rawText?: boolean | undefined;
  /** Called with the size of each frame as it is received (for metrics). */
  readonly onBytes?: ((bytes: number) => void) | undefined;
  /**
   * Flow control for consumers that process elements asynchronously: while the latest value is `true` the
   * socket is not read, so TCP pushes back on the participant and memory stays flat; `false` reads again.
   * A synchronous subscriber needs none (it holds the event loop while it works). The operators drive it
   * from their `handler`'s queue.
   */
  readonly paused?: Observable<boolean> | undefined;
  /** Called when the socket is open and the request was sent. */
  readonly onOpen?: ((connection: StreamConnection) => void) | undefined;
  /** A ping is sent this often (ms); 0 disables pings and the silence check. Default 10 000. */
  readonly pingIntervalMs?: number | undefined;
  /**
   * A socket from which nothing (no element, no checkpoint, no pong) arrived for this long while it was
   * read is closed, and the stream errors with a retryable `TransportError` `REQUEST_TIMEOUT`. Checked at
   * each ping. Default 30 000; 0 disables it.
   */
  readonly silenceTimeoutMs?: number | undefined;
}
