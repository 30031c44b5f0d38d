import type { Observable } from 'rxjs';
import type { Transport } from './transport.js';

/** One WebSocket connection of a `websocket` read, as reported to `onOpen`. */
export interface StreamConnection {
  /**
   * When the token sent with this connection expires (the JWT's `exp`, epoch milliseconds; decoded, not
   * verified), or `undefined` when it is unknown. The participant ends the stream with
   * `ACCESS_TOKEN_EXPIRED` then; the operators reconnect shortly before.
   */
  readonly tokenExpiresAt: number | undefined;
}

/**
 * Options of `LedgerClient.updates` (and `iterateUpdates`), and what the operators pass to any
 * `UpdatesSource.updates` (ledger-rx/operators, which reads a source with them): the transport, the
 * options of every transport (`signal`, `validate`, `rawText`, `onBytes`), and those of one transport, each
 * rejected with `InvalidArgumentError` when given with another: `limit` and `streamIdleTimeoutMs` (`list`),
 * `pageSize` (`page`), `onOpen`, `pingIntervalMs` and `silenceTimeoutMs` (`websocket`), `paused` (`websocket`
 * and `page`).
 */
export interface UpdatesOptions {
  /**
   * Aborts the call (as every client method's `signal`, `CallOptions`): the request is cancelled and the
   * observable errors with an `AbortError`. An already-aborted signal sends nothing.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * How to read: `list` (`POST /v2/updates`, the default), `page` (`POST /v2/updates/get-updates-page`,
   * page after page) or `websocket` (`GET /v2/updates` upgraded to a WebSocket). One attempt over that
   * transport; `'auto'` and resuming are the operators' (`tailUpdates`).
   */
  readonly transport?: Exclude<Transport, 'auto'> | undefined;
  /**
   * `list`: the query parameter `limit`: the server stops after this many elements (checkpoints count).
   * Without it, more than the server's list limit (200 by default) is an HTTP 413 error rather than truncation.
   */
  readonly limit?: number | undefined;
  /**
   * `list`: the query parameter `stream_idle_timeout_ms`: the server ends the response after this much
   * silence (default on the server: 500 ms, only for open-ended requests).
   */
  readonly streamIdleTimeoutMs?: number | undefined;
  /** `page`: updates per page (`maxPageSize`, 1 to the server's limit, 2 000 by default). Default: the participant's (100). */
  readonly pageSize?: number | undefined;
  /** Validate each element against the wire schema. Default: the client's `validateResponses`. */
  readonly validate?: boolean | undefined;
  /**
   * Keep each element's exact JSON text, readable with `elementText(element)` (for writing the server's bytes
   * out unchanged). Default false: the text is otherwise dropped as soon as the element is parsed.
   */
  readonly rawText?: boolean | undefined;
  /**
   * Called with the size of each chunk of a response body, or of each frame, as it is read (for metrics:
   * the operators pass it to report bytes read). Default none.
   */
  readonly onBytes?: ((bytes: number) => void) | undefined;
  /**
   * `websocket` and `page`: flow control for consumers that process elements asynchronously. While the
   * latest value is `true` the socket is not read (so TCP pushes back on the participant and memory stays
   * flat) and no further page is asked for; `false` reads again. A synchronous subscriber needs none (it
   * holds the event loop while it works). The operators drive it from their `handler`'s queue.
   */
  readonly paused?: Observable<boolean> | undefined;
  /** `websocket`: called when the socket is open and the request was sent. */
  readonly onOpen?: ((connection: StreamConnection) => void) | undefined;
  /** `websocket`: a ping is sent this often (ms); 0 disables pings and the silence check. Default 10 000. */
  readonly pingIntervalMs?: number | undefined;
  /**
   * `websocket`: a socket from which nothing (no element, no checkpoint, no pong) arrived for this long while
   * it was read is closed, and the stream errors with a retryable `TransportError` `REQUEST_TIMEOUT`.
   * Checked at each ping. Default 30 000; 0 disables it.
   */
  readonly silenceTimeoutMs?: number | undefined;
}
