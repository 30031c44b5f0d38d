import type { Observable } from 'rxjs';
import type { CallOptions } from './call-options.js';
import type { StreamConnection } from './stream-updates-options.js';

/**
 * How `client.completions` reads:
 * - `websocket`: the endpoint upgraded to a WebSocket, one frame per completion or checkpoint; it never ends;
 * - `list`: the `POST` list of the endpoint: it ends after `limit` elements or `streamIdleTimeoutMs` of
 *   silence (more than the participant's list limit without `limit` is an HTTP 413 error).
 */
export type CompletionsTransport = 'websocket' | 'list';

/** Options of `client.completions`. */
export interface CompletionsOptions extends CallOptions {
  /**
   * Which endpoint: `command-completions` (`GetCompletionsRequest`: by parties, the recommended one) or
   * `completions` (`CompletionStreamRequest`: by user and parties, deprecated but on every 3.x participant).
   * Default `command-completions`.
   */
  readonly endpoint?: 'command-completions' | 'completions' | undefined;
  /** The way to read. Default `websocket`. */
  readonly transport?: CompletionsTransport | undefined;
  /** List only: the `limit` query parameter. */
  readonly limit?: number | undefined;
  /** List only: the `stream_idle_timeout_ms` query parameter (the participant's default is 500 ms). */
  readonly streamIdleTimeoutMs?: number | undefined;
  /** Validate each element against the wire schema. Default: the client's `validateResponses`. */
  readonly validate?: boolean | undefined;
  /** Keep each element's exact JSON text, readable with `elementText(element)`. Default false. */
  readonly rawText?: boolean | undefined;
  /** Called with the size of each chunk or frame as it is read (for metrics). */
  readonly onBytes?: ((bytes: number) => void) | undefined;
  /** WebSocket only: flow control, as `streamUpdates`' `paused`. */
  readonly paused?: Observable<boolean> | undefined;
  /** WebSocket only: called when the socket is open and the request was sent. */
  readonly onOpen?: ((connection: StreamConnection) => void) | undefined;
  /** WebSocket only: a ping is sent this often (ms); 0 disables pings and the silence check. Default 10 000. */
  readonly pingIntervalMs?: number | undefined;
  /** WebSocket only: a socket silent this long despite pings fails with `REQUEST_TIMEOUT`. Default 30 000. */
  readonly silenceTimeoutMs?: number | undefined;
}
