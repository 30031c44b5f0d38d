import type { CallOptions } from '../call-options.js';

/** Options of {@link LedgerClient.updatesPage}. */
export interface UpdatesPageOptions extends CallOptions {
  /** Validate each element (and the page's bounds) against the wire schema. Default: the client's `validateResponses`. */
  readonly validate?: boolean | undefined;
  /** Keep each element's exact JSON text, readable with `elementText(element)`. Default false. */
  readonly rawText?: boolean | undefined;
  /** Called with the size of each chunk of the answer as it is read (for metrics). */
  readonly onBytes?: ((bytes: number) => void) | undefined;
}
