import type { CallOptions } from '../call-options.js';
import type { StreamUpdatesOptions } from '../websocket/stream-updates-options.js';

/**
 * How `client.completions` reads:
 * - `websocket`: the endpoint upgraded to a WebSocket, one frame per completion or checkpoint; it never ends;
 * - `list`: the `POST` list of the endpoint: it ends after `limit` elements or `streamIdleTimeoutMs` of
 *   silence (more than the participant's list limit without `limit` is an HTTP 413 error).
 */
export type CompletionsTransport = 'websocket' | 'list';

/**
 * Options of `client.completions`: `validate`, `rawText` and `onBytes` as for `streamUpdates`, and over
 * WebSocket only its `paused`, `onOpen`, `pingIntervalMs` and `silenceTimeoutMs`.
 */
export interface CompletionsOptions
  extends CallOptions,
    Pick<StreamUpdatesOptions, 'validate' | 'rawText' | 'onBytes' | 'paused' | 'onOpen' | 'pingIntervalMs' | 'silenceTimeoutMs'> {
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
}
