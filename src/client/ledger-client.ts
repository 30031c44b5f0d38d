import type { Observable, SchedulerLike } from 'rxjs';
import type { ParticipantVersionInfo } from './versions/participant-version-info.js';
import type {
  GetCompletionByHashRequest,
  GetCompletionByHashResponse,
  GetUpdateByHashRequest,
  JsGetUpdateResponse,
  AllocatePartyRequest,
  CompletionStreamRequest,
  CompletionStreamResponse,
  GetActiveContractsPageRequest,
  GetCompletionsRequest,
  JsGetActiveContractsResponse,
  AllocatePartyResponse,
  CreateUserRequest,
  CreateUserResponse,
  GetLatestPrunedOffsetsResponse,
  GetLedgerApiVersionResponse,
  GetLedgerEndResponse,
  GetUpdatesPageRequest,
  GetUpdatesRequest,
  GetUserResponse,
  GrantUserRightsRequest,
  GrantUserRightsResponse,
  JsCommands,
  JsGetUpdatesResponse,
  JsSubmitAndWaitForReassignmentResponse,
  ListKnownPartiesResponse,
  ListPackagesResponse,
  ListUserRightsResponse,
  ListVettedPackagesRequest,
  ListVettedPackagesResponse,
  RevokeUserRightsRequest,
  RevokeUserRightsResponse,
  SubmitAndWaitForReassignmentRequest,
  SubmitResponse,
  UpdateUserRequest,
  UpdateUserResponse,
  UpdateVettedPackagesRequest,
  UpdateVettedPackagesResponse,
  VettedPackages,
} from '../schemas/index.js';
import type { ActiveContractsOptions, ActiveContractsPageOptions, ActiveContractsRequest } from './reads/active-contracts-options.js';
import type { ActiveContractsPage } from '../active-contracts/active-contracts-page.js';
import type { CallOptions } from './call-options.js';
import type { CompletionsOptions } from './reads/completions-options.js';
import type { RetryConfig } from '../retry/retry-config.js';
import type { UpdateVettedPackagesOptions } from './unary/update-vetted-packages-options.js';
import type { Transport } from '../updates/transport.js';
import type { UpdatesPage } from '../updates/updates-page.js';
import type { UpdatesOptions } from '../updates/updates-options.js';
import type { UpdatesPageOptions } from './reads/updates-page-options.js';

/** Options of `listAllVettedPackages`: the call options. */
export interface ListAllVettedPackagesOptions extends CallOptions {
  /**
   * Ignored: `listAllVettedPackages` makes one attempt, like every client method.
   *
   * @deprecated use `allVettedPackages(client, request, { retry })` (ledger-rx/operators), which retries a failed page; removed in the next minor.
   */
  readonly retry?: RetryConfig | false;
  /**
   * Ignored (there is no backoff to schedule): see `retry`.
   *
   * @deprecated use `allVettedPackages(client, request, { scheduler })`; removed in the next minor.
   */
  readonly scheduler?: SchedulerLike;
}

/**
 * A typed client of the Canton JSON Ledger API v2, made by {@link createLedgerClient}.
 *
 * Common contract of every method:
 * - arguments are validated first: the options argument (`undefined` or a plain object; `signal` an
 *   `AbortSignal`; numeric options non-negative integers; `validate`/`rawText` booleans), then the request
 *   (zod schema, then every rule the server applies without looking at its state, in the server's order);
 *   a violation rejects (for Observable/iterable methods: throws synchronously) with `InvalidArgumentError`
 *   naming the field or option and the rule, and NOTHING is sent;
 * - a non-2xx answer rejects with `LedgerApiError` (`PrunedOffsetError` for pruned offsets) carrying the
 *   Canton error fields, or code `HTTP_<status>` for a non-Canton body; network failures reject with
 *   `TransportError`; a malformed or off-schema 2xx body with `ProtocolError`;
 * - the last argument may carry an `AbortSignal`; aborting rejects with `AbortError`;
 * - nothing is retried except a 401 once, with a fresh token from a token provider: the operators
 *   (`tailUpdates`, `activeContractsSnapshot`, `allVettedPackages`, ...) resume a failed read.
 */
export interface LedgerClient {
  /**
   * Always `true`: every element that `updates()` and `iterateUpdates()` emit was checked against its
   * request's range and order (`elementOrderCheck`), so the operators (`tailUpdates`, `readDescending`),
   * which read `UpdatesSource.checksElementOrder`, do not check it a second time.
   */
  readonly checksElementOrder: true;

  /** `POST /v2/package-vetting/list`: one page of the vetting state. The last page of a listing is empty. */
  listVettedPackages(request: ListVettedPackagesRequest, options?: CallOptions): Promise<ListVettedPackagesResponse>;

  /**
   * Every `VettedPackages` element of every page of `POST /v2/package-vetting/list`, in server order, one
   * page at a time. Cold (each subscription walks from `request.pageToken` or the start); completes after the
   * server's final empty page (or an empty token). One attempt: errors with the first failed page (the
   * elements of the pages before it emitted), or `ProtocolError` `PAGE_TOKEN_NOT_ADVANCING` when a token
   * repeats; `allVettedPackages(client, request, { retry })` (ledger-rx/operators) asks for a failed page
   * again. Unsubscribing (or `options.signal`) aborts the in-flight page request.
   */
  listAllVettedPackages(request: ListVettedPackagesRequest, options?: ListAllVettedPackagesOptions): Observable<VettedPackages>;

  /**
   * Changes this participant's vetting state (`dryRun: true` only checks and previews). Sent to
   * `POST /v2/package-vetting` by default, or `POST /v2/package-vetting/update` with `endpoint: 'update'`.
   */
  updateVettedPackages(request: UpdateVettedPackagesRequest, options?: UpdateVettedPackagesOptions): Promise<UpdateVettedPackagesResponse>;

  /**
   * The transports of `updates()`, `iterateUpdates()` and `activeContracts()` (`completions()`: `websocket`
   * and `list`): all three. The operators (`tailUpdates`, ...) read it to know that `updates()` takes
   * `transport: 'websocket'` (`UpdatesSource.transports`).
   */
  readonly transports: readonly Exclude<Transport, 'auto'>[];

  /**
   * The updates of `request`'s range, each `JsGetUpdatesResponse` emitted as its bytes arrive, over
   * `options.transport` (one attempt: nothing is retried but a 401; `tailUpdates` resumes):
   * - `list` (the default): one call of `POST /v2/updates?limit=..&stream_idle_timeout_ms=..`, its JSON array
   *   parsed incrementally. Completes when the array ends (the server ends it at `limit`, at the range's end,
   *   or after `streamIdleTimeoutMs` of silence); more than the server's list limit without `limit` is an
   *   HTTP 413 error. There is no overall deadline (the server may hold a long-poll up to its 20 s timeout);
   *   headers and each body chunk are awaited at least 25 s.
   * - `websocket`: `GET /v2/updates` as a WebSocket, one connection per subscription, the token sent in the
   *   subprotocols (`jwt.token.<JWT>`, `daml.ws.auth`; a provider is called for every connection), the
   *   request sent as the one text frame, one element per frame. No page cap and no idle timeout: an
   *   open-ended request (no `endInclusive`) never completes; a bounded one completes when the server closes
   *   the socket normally after its last element. Errors with the `LedgerApiError` of an error frame (all ten
   *   fields) or of a refused upgrade (`HTTP_404`, `HTTP_426`, `HTTP_501`, ... for a participant or proxy
   *   without WebSockets), with a retryable `TransportError` when the socket closes without an error frame
   *   (always for an open-ended read: `CONNECTION_RESET` with `closeCode`) or stays silent beyond
   *   `silenceTimeoutMs` despite pings (`REQUEST_TIMEOUT`). A 401 before any element is tried once more
   *   with a fresh token. `paused` gives real backpressure to asynchronous consumers.
   * - `page`: `POST /v2/updates/get-updates-page` (participants 3.5.1 and later, else
   *   `UnsupportedByParticipantVersionError` before sending), page after page with the server's tokens,
   *   `pageSize` updates each, the next page asked for once the previous one was emitted and `paused` is
   *   not `true`. Completes after the last page of the range; an ascending read without `endInclusive`
   *   completes after its first empty page (the ledger end as of that page). A repeated token is a
   *   `ProtocolError` `PAGE_TOKEN_NOT_ADVANCING`.
   *
   * On every transport, every element is checked against the request: its offset must lie in
   * `(beginExclusive, endInclusive]` and go strictly up (down when `descendingOrder`), an `OffsetCheckpoint`
   * may repeat the offset just reached; the first element that breaks this is a `ProtocolError`
   * `OFFSET_NOT_INCREASING` and is not emitted. Errors with the HTTP error (nothing emitted), or mid-read
   * with `TransportError` (`BODY_TRUNCATED`, `CONNECTION_RESET`, `REQUEST_TIMEOUT`) or `ProtocolError` after
   * the elements before it. Cold: every subscription sends a new request. Unsubscribing aborts the request
   * (closes the socket) and destroys the body.
   *
   * A request with the deprecated `filter`/`verbose` and no `updateFormat` is sent as the `updateFormat`
   * `fromLegacyFilter` builds. Invalid arguments, and an option of another transport (`limit` with
   * `websocket`, ...), throw `InvalidArgumentError` synchronously.
   */
  updates(request: GetUpdatesRequest, options?: UpdatesOptions): Observable<JsGetUpdatesResponse>;

  /**
   * {@link updates} as an async iterable, for callers without RxJS: the same options and transports. Every
   * `for await` sends its own request; the loop pulls the `list` body as it goes, and holds at most 128
   * elements of a `websocket` or `page` read before it pauses it. Leaving the loop early (`break`, `return`,
   * a throw) aborts the request (closes the socket) and destroys the body; errors are thrown from the loop.
   * Invalid arguments throw `InvalidArgumentError` synchronously.
   */
  iterateUpdates(request: GetUpdatesRequest, options?: UpdatesOptions): AsyncIterable<JsGetUpdatesResponse>;

  /**
   * The updates over a WebSocket (`GET /v2/updates`): the same read as `updates(request, { ...options,
   * transport: 'websocket' })`, except that options of the other transports are ignored rather than refused.
   *
   * @deprecated use `updates(request, { transport: 'websocket' })`; removed in the next minor.
   */
  streamUpdates(request: GetUpdatesRequest, options?: UpdatesOptions): Observable<JsGetUpdatesResponse>;

  /**
   * One page of `POST /v2/updates/get-updates-page`: resolves with the page's updates (decoded, validated and
   * checked against the request's range and order like {@link updates}, `rawText` kept on request) and its
   * bounds, and `nextPageToken` for the next page of the same request. The server pages by itself: 100
   * updates by default, `maxPageSize` up to its limit (2 000 by default; more is `INVALID_ARGUMENT`, never a
   * 413); an ascending read without `endOffsetInclusive` always has a next token (poll it to tail); a token
   * used with another request or participant fails with `InvalidUpdatesPageToken`. The body is parsed as it
   * arrives. Rejects like the other methods; invalid arguments reject with `InvalidArgumentError` and nothing
   * is sent.
   */
  updatesPage(request: GetUpdatesPageRequest, options?: UpdatesPageOptions): Promise<UpdatesPage>;

  /**
   * The active contracts at one offset (`GetActiveContractsRequest`; `activeAtOffset` left out means the ledger
   * end, looked up first and reported through `onActiveAtOffset` before the first entry), one
   * `JsGetActiveContractsResponse` per entry (active contracts and incomplete (un)assignments) as it arrives,
   * over `options.transport`: `websocket` (`GET /v2/state/active-contracts` as a WebSocket, the default),
   * `page` (`GET /v2/state/active-contracts-page`, page after page) or `list` (`POST
   * /v2/state/active-contracts`: small sets only, more than the participant's list limit is a 413 error). The
   * deprecated `filter`/`verbose` are sent as the `eventFormat` the server builds from them. Entries are
   * decoded and validated like updates (`validate`, `rawText`, unknown entry kinds as `UnknownVariant`).
   *
   * Completes after the last entry. One read, not retried (`activeContractsSnapshot` resumes a failed one at
   * the same offset after the last entry delivered): errors with the first failure (`PrunedOffsetError` for
   * an offset before the pruning offset, `OFFSET_AFTER_LEDGER_END`, a token of another request, a retryable
   * `TransportError`). Unsubscribing aborts the request in flight. Invalid arguments throw
   * `InvalidArgumentError` synchronously.
   */
  activeContracts(request: ActiveContractsRequest, options?: ActiveContractsOptions): Observable<JsGetActiveContractsResponse>;

  /**
   * One page of `GET /v2/state/active-contracts-page` (a GET with a JSON body, as the server declares it):
   * resolves with its entries (decoded and validated like `activeContracts`), the snapshot's offset and
   * `nextPageToken` (absent on the last page). A token is valid only with the same `activeAtOffset` (set or
   * left out alike) and `eventFormat` on the same participant. Not retried; rejects like the other methods.
   */
  activeContractsPage(request: GetActiveContractsPageRequest, options?: ActiveContractsPageOptions): Promise<ActiveContractsPage>;

  /**
   * The completions of submitted commands after `request.beginExclusive`, one `CompletionStreamResponse` per
   * completion or `OffsetCheckpoint` as it arrives, from `/v2/commands/command-completions`
   * (`GetCompletionsRequest`, the default) or the deprecated `/v2/commands/completions`
   * (`CompletionStreamRequest`, `endpoint: 'completions'`), over `options.transport`: `websocket` (the
   * default; never completes: a close is a retryable `TransportError`) or `list` (completes after `limit`
   * elements or `streamIdleTimeoutMs` of silence). Offsets are checked like updates' (after
   * `beginExclusive`, strictly increasing; a checkpoint may repeat the offset just reached). One read, not
   * retried: `tailCompletions` resumes. Errors like `updates` over the same transport. Invalid arguments throw
   * `InvalidArgumentError` synchronously.
   */
  completions(request: GetCompletionsRequest | CompletionStreamRequest, options?: CompletionsOptions): Observable<CompletionStreamResponse>;

  /**
   * `POST /v2/commands/async/submit`. Resolves with `{}` once the participant ACCEPTED the command; the
   * outcome arrives on the completion or update streams. Not retried: re-submitting with the same change
   * id (see `changeId`) is deduplicated by the server.
   */
  submit(commands: JsCommands, options?: CallOptions): Promise<SubmitResponse>;

  /** `POST /v2/commands/submit-and-wait-for-reassignment`: resolves with the committed reassignment. */
  submitAndWaitForReassignment(
    request: SubmitAndWaitForReassignmentRequest,
    options?: CallOptions,
  ): Promise<JsSubmitAndWaitForReassignmentResponse>;

  /**
   * `PATCH /v2/users/{user-id}` (id URL-encoded): updates the fields named by `updateMask` (see `fieldMask`)
   * and resolves with the whole user after the update. `userId` must equal `request.user.id`.
   */
  updateUser(userId: string, request: UpdateUserRequest, options?: CallOptions): Promise<UpdateUserResponse>;

  /**
   * `PATCH /v2/users/{user-id}/rights`: resolves with the rights that were actually removed. `userId` must
   * equal `request.userId`.
   */
  revokeUserRights(userId: string, request: RevokeUserRightsRequest, options?: CallOptions): Promise<RevokeUserRightsResponse>;

  /** `GET /v2/version`: the server version and features (no token needed). */
  version(options?: CallOptions): Promise<GetLedgerApiVersionResponse>;

  /** `GET /v2/state/ledger-end`: the current ledger end offset (0 on an empty ledger). */
  ledgerEnd(options?: CallOptions): Promise<GetLedgerEndResponse>;

  /** `GET /v2/state/latest-pruned-offsets`: the smallest `beginExclusive` still served. */
  latestPrunedOffsets(options?: CallOptions): Promise<GetLatestPrunedOffsetsResponse>;

  /** `POST /v2/parties`: allocates a party. */
  allocateParty(request: AllocatePartyRequest, options?: CallOptions): Promise<AllocatePartyResponse>;

  /** `GET /v2/parties`: the first page of known parties. */
  listParties(options?: CallOptions): Promise<ListKnownPartiesResponse>;

  /** `POST /v2/users`: creates a user with optional rights. */
  createUser(request: CreateUserRequest, options?: CallOptions): Promise<CreateUserResponse>;

  /** `GET /v2/users/{user-id}`. */
  getUser(userId: string, options?: CallOptions): Promise<GetUserResponse>;

  /** `GET /v2/users/{user-id}/rights`. */
  listUserRights(userId: string, options?: CallOptions): Promise<ListUserRightsResponse>;

  /** `POST /v2/users/{user-id}/rights`: resolves with the rights that were newly granted. */
  grantUserRights(userId: string, request: GrantUserRightsRequest, options?: CallOptions): Promise<GrantUserRightsResponse>;

  /** `GET /v2/packages`: the ids of all uploaded packages. */
  listPackages(options?: CallOptions): Promise<ListPackagesResponse>;

  /**
   * `POST /v2/updates/update-by-hash` (participants 3.6 and later): the update of the externally signed
   * submission whose transaction hash is `request.transactionHash`, in `request.updateFormat`. Rejects with
   * `UnsupportedByParticipantVersionError` before sending on an older participant, and with the server's
   * `UPDATE_NOT_FOUND` when no visible update has that hash.
   */
  updateByHash(request: GetUpdateByHashRequest, options?: CallOptions): Promise<JsGetUpdateResponse>;

  /**
   * `POST /v2/commands/completion-by-hash` (participants 3.6 and later): the accepted completion and the
   * last rejected ones of the externally signed submission with that transaction hash, as far as the
   * caller may read them. Rejects with `UnsupportedByParticipantVersionError` before sending on an older
   * participant, and with the server's `COMPLETION_NOT_FOUND` when there is none.
   */
  completionByHash(request: GetCompletionByHashRequest, options?: CallOptions): Promise<GetCompletionByHashResponse>;

  /**
   * The participant's version (`GET /v2/version`, read once per client and again after a connection to the
   * participant was lost, or the `participantVersion` option) and which endpoints it has
   * (docs/participant-versions.md).
   */
  participantVersion(options?: CallOptions): Promise<ParticipantVersionInfo>;

  /**
   * Aborts every in-flight call (they reject with `AbortError`), makes later calls reject the same way,
   * and closes the dispatcher if the client created it (a dispatcher passed in is left open).
   * Idempotent; resolves when the dispatcher is closed.
   */
  close(): Promise<void>;
}
