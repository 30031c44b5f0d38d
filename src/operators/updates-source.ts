import type { Observable, ObservableInput } from 'rxjs';
import type { GetLedgerEndResponse } from '../schemas/state.js';
import type { GetUpdatesPageRequest, GetUpdatesRequest, JsGetUpdatesResponse } from '../schemas/updates.js';
import type { Transport } from '../updates/transport.js';
import type { UpdatesPage } from '../updates/updates-page.js';

/**
 * The options the operators pass to {@link UpdatesSource.updates} (a subset of the client's `UpdatesOptions`):
 * the transport, and the options of that transport.
 */
export interface UpdatesReadOptions {
  /** `list` (left out) or `websocket` (only to a source whose `transports` has it). */
  readonly transport?: Exclude<Transport, 'auto'>;
  /** `list`: the `limit` query parameter: at most this many elements (truncation, never 413, when ≤ the server cap). */
  readonly limit?: number;
  /** `list`: the `stream_idle_timeout_ms` query parameter. */
  readonly streamIdleTimeoutMs?: number;
  /** Validate each element against the wire schema (default true). */
  readonly validate?: boolean;
  /** Keep each element's exact JSON text for `elementText` (default false). */
  readonly rawText?: boolean;
  /** Called with the size of each chunk or frame of the answer as it is read (the operators count bytes read with it). */
  readonly onBytes?: (bytes: number) => void;
  /** `websocket`: while `true`, the source stops reading the socket (backpressure from the read's `handler`). */
  readonly paused?: Observable<boolean>;
  /** `websocket`: called once the stream is open, with the expiry of its token (epoch ms) when known. */
  readonly onOpen?: (connection: { readonly tokenExpiresAt: number | undefined }) => void;
  readonly pingIntervalMs?: number;
  readonly silenceTimeoutMs?: number;
}

/** The options the operators pass to {@link UpdatesSource.updatesPage} and `SnapshotSource.activeContractsPage`. */
export interface PageReadOptions {
  readonly validate?: boolean;
  readonly rawText?: boolean;
  readonly onBytes?: (bytes: number) => void;
}

/**
 * What the operators need from a client: the ledger end, and the update stream through at least one
 * transport, each call a cold Observable (unsubscribing aborts it): `updates()` (`POST /v2/updates`, the
 * list; required; `GET /v2/updates` over a WebSocket too when `transports` says so), and when offered
 * `updatesPage()` (one `get-updates-page` page, which the `page` transport walks and resumes by its tokens).
 * `LedgerClient` offers all three; tests pass fakes built from marbles.
 */
export interface UpdatesSource {
  /**
   * `true` when every answer of `updates()` is already checked against its request's range and order with
   * `elementOrderCheck` (as `LedgerClient`'s are): the paging engine then trusts it instead of checking each
   * element again. Leave it out (the default) and the engine checks every answer itself, so a source that
   * does not check (a wrapper, a test fake) can never hand it a duplicate or a step backwards. (The pages of
   * `updatesPage()` are always checked across pages by the engine.)
   */
  readonly checksElementOrder?: boolean;
  /**
   * The `transport` values `updates()` serves (`LedgerClient`: `list`, `page`, `websocket`). Left out:
   * `list` only. With `websocket`, the reads may ask `updates(request, { transport: 'websocket' })`.
   */
  readonly transports?: readonly Exclude<Transport, 'auto'>[];
  /** See `LedgerClient.updates`: the list, or with `transport: 'websocket'` one WebSocket stream. */
  updates(request: GetUpdatesRequest, options?: UpdatesReadOptions): Observable<JsGetUpdatesResponse>;
  /**
   * `GET /v2/updates` over a WebSocket: one stream per subscription, used when `transports` does not list
   * `websocket`.
   *
   * @deprecated give `transports: ['list', 'websocket']` and serve `updates(request, { transport: 'websocket' })`; removed in the next minor.
   */
  streamUpdates?(request: GetUpdatesRequest, options?: UpdatesReadOptions): Observable<JsGetUpdatesResponse>;
  /** One page of `POST /v2/updates/get-updates-page` (see `LedgerClient.updatesPage`). */
  updatesPage?(request: GetUpdatesPageRequest, options?: PageReadOptions): ObservableInput<UpdatesPage>;
  ledgerEnd(): ObservableInput<GetLedgerEndResponse>;
}
