import type { JsonArrayScannerOptions } from './json-array-scanner.js';

/** Options of {@link observeJsonArrayBody} and {@link iterateJsonArrayBody}. */
export interface JsonArrayBodyOptions extends JsonArrayScannerOptions {
  /**
   * Called exactly once when reading stops for any reason (completion, error, unsubscribe, `return()`), after
   * the body was released. The HTTP client uses it to abort the request.
   */
  readonly onTeardown?: () => void;
  /** Called with the size of each chunk of the body as it is read, before its elements are emitted (for metrics). */
  readonly onBytes?: (bytes: number) => void;
}
