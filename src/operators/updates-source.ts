import type { Observable, ObservableInput } from 'rxjs';
import type { GetLedgerEndResponse } from '../schemas/state.js';
import type { GetUpdatesPageRequest, GetUpdatesRequest, JsGetUpdatesResponse } from '../schemas/updates.js';

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

/** The options the operators pass to {@link UpdatesSource.streamUpdates} (a subset of the client's). */
export interface StreamReadOptions {
  readonly validate?: boolean;
  readonly rawText?: boolean;
  readonly onBytes?: (bytes: number) => void;
  /** While `true`, the source stops reading the socket (backpressure from the read's `handler`). */
  readonly paused?: Observable<boolean>;
  /** Called once the stream is open, with the expiry of its token (epoch ms) when known. */
  readonly onOpen?: (connection: { readonly tokenExpiresAt: number | undefined }) => void;
  readonly pingIntervalMs?: number;
  readonly silenceTimeoutMs?: number;
}

/** The options the operators pass to {@link UpdatesSource.updatesPage}. */
export interface PageReadOptions {
  readonly validate?: boolean;
  readonly rawText?: boolean;
  readonly onBytes?: (bytes: number) => void;
}

/** One page of `get-updates-page`, as the operators read it (`LedgerClient.updatesPage` resolves with one). */
export interface UpdatesPageAnswer {
  readonly updates: readonly JsGetUpdatesResponse[];
  readonly highestPageOffsetInclusive: number;
  readonly nextPageToken: string | undefined;
}

/** What `'auto'` asks of the participant's version (`LedgerClient.participantVersion` resolves with one). */
export interface TransportVersionInfo {
  /** The version string the participant reported. */
  readonly version: string;
  /** True when the participant's version has `operation` (docs/participant-versions.md). */
  supports(operation: 'updatesPage' | 'activeContractsPage'): boolean;
}

/**
 * What the operators need from a client: the ledger end, and the update stream through at least one
 * transport, each call a cold Observable (unsubscribing aborts it): `updates()` (`POST /v2/updates`, the
 * list; required), and when offered `streamUpdates()` (WebSocket) and `updatesPage()` (`get-updates-page`).
 * `LedgerClient` offers all three; tests pass fakes built from marbles.
 */
export interface UpdatesSource {
  /**
   * `true` when every answer of `updates()` and `streamUpdates()` is already checked against its request's
   * range and order with `elementOrderCheck` (as `LedgerClient`'s are): the paging engine then trusts it
   * instead of checking each element again. Leave it out (the default) and the engine checks every answer
   * itself, so a source that does not check (a wrapper, a test fake) can never hand it a duplicate or a step
   * backwards. (The pages of `updatesPage()` are always checked across pages by the engine.)
   */
  readonly checksElementOrder?: boolean;
  updates(request: GetUpdatesRequest, options?: UpdatesPageOptions): Observable<JsGetUpdatesResponse>;
  /** `GET /v2/updates` over a WebSocket: one stream per subscription (see `LedgerClient.streamUpdates`). */
  streamUpdates?(request: GetUpdatesRequest, options?: StreamReadOptions): Observable<JsGetUpdatesResponse>;
  /** One page of `POST /v2/updates/get-updates-page` (see `LedgerClient.updatesPage`). */
  updatesPage?(request: GetUpdatesPageRequest, options?: PageReadOptions): ObservableInput<UpdatesPageAnswer>;
  ledgerEnd(): ObservableInput<GetLedgerEndResponse>;
  /**
   * The participant's version (`LedgerClient.participantVersion`, read once per client): with it, `'auto'`
   * leaves out the transports the version does not have (on 3.4 no `get-updates-page`) before the first
   * request. Without it (or when it fails), such a transport is tried and its refusal falls back.
   */
  participantVersion?(): ObservableInput<TransportVersionInfo>;
}
