import type { CallOptions } from '../call-options.js';
import type { Transport } from '../../updates/transport.js';
import type { UpdatesOptions } from '../../updates/updates-options.js';

/**
 * Options of `client.completions`: `validate`, `rawText` and `onBytes` as for `updates`, and over
 * WebSocket only its `paused`, `onOpen`, `pingIntervalMs` and `silenceTimeoutMs`.
 */
export interface CompletionsOptions
  extends CallOptions,
    Pick<UpdatesOptions, 'validate' | 'rawText' | 'onBytes' | 'paused' | 'onOpen' | 'pingIntervalMs' | 'silenceTimeoutMs'> {
  /**
   * Which endpoint: `command-completions` (`GetCompletionsRequest`: by parties, the recommended one) or
   * `completions` (`CompletionStreamRequest`: by user and parties, deprecated but on every 3.x participant).
   * Default `command-completions`.
   */
  readonly endpoint?: 'command-completions' | 'completions' | undefined;
  /**
   * The way to read (default `websocket`): `websocket` (the endpoint upgraded to a WebSocket, one frame per
   * completion or checkpoint; it never ends) or `list` (the `POST` list of the endpoint: it ends after
   * `limit` elements or `streamIdleTimeoutMs` of silence; more than the participant's list limit without
   * `limit` is an HTTP 413 error). The completion endpoints have no pages.
   */
  readonly transport?: Extract<Transport, 'websocket' | 'list'> | undefined;
  /** List only: the `limit` query parameter. */
  readonly limit?: number | undefined;
  /** List only: the `stream_idle_timeout_ms` query parameter (the participant's default is 500 ms). */
  readonly streamIdleTimeoutMs?: number | undefined;
}
