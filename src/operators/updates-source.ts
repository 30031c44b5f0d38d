import type { Observable, ObservableInput } from 'rxjs';
import type { GetLedgerEndResponse } from '../schemas/state.js';
import type { GetUpdatesRequest, JsGetUpdatesResponse } from '../schemas/updates.js';

/** The query parameters of one `POST /v2/updates` call. */
export interface UpdatesPageOptions {
  /** The `limit` query parameter: at most this many elements (truncation, never 413, when ≤ the server cap). */
  readonly limit?: number;
  /** The `stream_idle_timeout_ms` query parameter. */
  readonly streamIdleTimeoutMs?: number;
  /** Validate each element against the wire schema (default true). */
  readonly validate?: boolean;
  /** Keep each element's exact JSON text for `elementText` (default false). */
  readonly rawText?: boolean;
  /** Called with the size of each chunk of the answer as it is read (the operators count bytes read with it). */
  readonly onBytes?: (bytes: number) => void;
}

/**
 * What the operators need from a client: one `POST /v2/updates` call as a cold Observable (unsubscribing
 * aborts it), and the ledger end. `LedgerClient` satisfies it; tests pass fakes built from marbles.
 */
export interface UpdatesSource {
  /**
   * The name of the transport the calls go through, reported in the read's statuses for metrics
   * (`'http'` when absent: the `POST /v2/updates` list).
   */
  readonly transport?: string;
  /**
   * `true` when every answer of `updates()` is already checked against its request's range and order with
   * `elementOrderCheck` (as `LedgerClient.updates` is): the paging engine then trusts it instead of checking
   * each element again. Leave it out (the default) and the engine checks every page itself, so a source
   * that does not check (a wrapper, a test fake) can never hand it a duplicate or a step backwards.
   */
  readonly checksElementOrder?: boolean;
  updates(request: GetUpdatesRequest, options?: UpdatesPageOptions): Observable<JsGetUpdatesResponse>;
  ledgerEnd(): ObservableInput<GetLedgerEndResponse>;
}
