/**
 * The last argument of every {@link LedgerClient} method: left out, or a plain object. Anything else — or a
 * `signal` that is not an `AbortSignal` — is rejected with `InvalidArgumentError` before anything is sent.
 */
export interface CallOptions {
  /**
   * Aborts the call: the HTTP request is cancelled and the returned promise rejects (or the observable
   * errors) with an `AbortError`. An already-aborted signal sends nothing.
   */
  readonly signal?: AbortSignal | undefined;
}
