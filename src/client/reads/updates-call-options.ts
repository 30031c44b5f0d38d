import type { CallOptions } from '../call-options.js';

/** Options of {@link LedgerClient.updates} and {@link LedgerClient.iterateUpdates}. */
export interface UpdatesCallOptions extends CallOptions {
  /**
   * Query parameter `limit`: the server stops after this many elements (checkpoints count). Without it,
   * more than the server's list limit (200 by default) is an HTTP 413 error rather than truncation.
   */
  readonly limit?: number | undefined;
  /**
   * Query parameter `stream_idle_timeout_ms`: the server ends the response after this much silence
   * (default on the server: 500 ms, only for open-ended requests).
   */
  readonly streamIdleTimeoutMs?: number | undefined;
  /** Validate each element against the wire schema. Default: the client's `validateResponses`. */
  readonly validate?: boolean | undefined;
  /**
   * Keep each element's exact JSON text, readable with `elementText(element)` (for writing the server's bytes
   * out unchanged). Default false: the text is otherwise dropped as soon as the element is parsed.
   */
  readonly rawText?: boolean | undefined;
  /**
   * Called with the size of each chunk of the response body as it is read (for metrics: the operators pass
   * it to report bytes read). Default none.
   */
  readonly onBytes?: ((bytes: number) => void) | undefined;
}
