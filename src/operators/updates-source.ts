import type { Observable, ObservableInput } from 'rxjs';
import type { GetLedgerEndResponse } from '../schemas/state.js';
import type { GetUpdatesPageRequest, GetUpdatesRequest, JsGetUpdatesResponse } from '../schemas/updates.js';
import type { Transport } from '../updates/transport.js';
import type { UpdatesOptions } from '../updates/updates-options.js';
import type { UpdatesPage } from '../updates/updates-page.js';

/** The options the operators pass to {@link UpdatesSource.updatesPage} and `SnapshotSource.activeContractsPage`. */
export type PageReadOptions = Pick<UpdatesOptions, 'validate' | 'rawText' | 'onBytes'>;

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
  updates(request: GetUpdatesRequest, options?: UpdatesOptions): Observable<JsGetUpdatesResponse>;
  /**
   * `GET /v2/updates` over a WebSocket: one stream per subscription, used when `transports` does not list
   * `websocket`.
   *
   * @deprecated give `transports: ['list', 'websocket']` and serve `updates(request, { transport: 'websocket' })`; removed in the next minor.
   */
  streamUpdates?(request: GetUpdatesRequest, options?: UpdatesOptions): Observable<JsGetUpdatesResponse>;
  /** One page of `POST /v2/updates/get-updates-page` (see `LedgerClient.updatesPage`). */
  updatesPage?(request: GetUpdatesPageRequest, options?: PageReadOptions): ObservableInput<UpdatesPage>;
  ledgerEnd(): ObservableInput<GetLedgerEndResponse>;
  /**
   * The participant's version (`LedgerClient.participantVersion`, read once per client): with it, `'auto'`
   * leaves out the transports the version does not have (on 3.4 no `get-updates-page`) before the first
   * request. Without it (or when it fails), such a transport is tried and its refusal falls back.
   */
  participantVersion?(): ObservableInput<TransportVersionInfo>;
}
