import type { buildConnector, Dispatcher } from 'undici';
import { defer, from, switchMap } from 'rxjs';
import {
  AllocatePartyRequest,
  AllocatePartyResponse,
  CreateUserResponse,
  GetCompletionByHashResponse,
  GetLatestPrunedOffsetsResponse,
  GetLedgerApiVersionResponse,
  GetLedgerEndResponse,
  GetUserResponse,
  JsGetUpdateResponse,
  GrantUserRightsResponse,
  JsSubmitAndWaitForReassignmentResponse,
  ListKnownPartiesResponse,
  ListPackagesResponse,
  ListUserRightsResponse,
  ListVettedPackagesResponse,
  RevokeUserRightsResponse,
  SubmitResponse,
  UpdateUserResponse,
  UpdateVettedPackagesResponse,
  type GetUpdatesRequest,
} from '../schemas/index.js';
import { createActiveContractsMethods } from './reads/create-active-contracts-methods.js';
import { createCompletionsMethod } from './reads/create-completions-method.js';
import { createHttpTransport, type HttpCall } from './http/create-http-transport.js';
import { createWebSocketTransport } from './websocket/create-websocket-transport.js';
import { createUnaryMethods } from './unary/create-unary-methods.js';
import { iterateUpdates } from './reads/iterate-updates.js';
import type { LedgerClient } from './ledger-client.js';
import type { LedgerClientOptions } from './ledger-client-options.js';
import { listAllVettedPackages, type ListAllVettedPackagesRetry } from './unary/list-all-vetted-packages.js';
import { resolveRetryConfig } from '../retry/resolve-retry-config.js';
import type { ListAllVettedPackagesOptions } from './ledger-client.js';
import { observeWebSocketStream } from './websocket/observe-websocket-stream.js';
import { observeJsonList } from './http/observe-json-list.js';
import { readUpdatesPage } from './reads/read-updates-page.js';
import { resolveClientOptions } from './resolve-client-options.js';
import { toUpdatesBody } from './reads/to-updates-body.js';
import { userPath } from './unary/user-path.js';
import { updateDecoding } from '../updates/update-decoding.js';
import { updateElementDecoder } from '../updates/update-element-decoder.js';
import { streamFrameDecoder } from './websocket/stream-frame-decoder.js';
import type { StreamUpdatesOptions } from './websocket/stream-updates-options.js';
import type { UpdatesCallOptions } from './reads/updates-call-options.js';
import type { UpdatesPageCallOptions } from './reads/updates-page-call-options.js';
import {
  parseRequest,
  validateCallOptions,
  validateCreateUserRequest,
  validateGetActiveContractsPageRequest,
  validateGetUpdatesPageRequest,
  validateGetUpdatesRequest,
  validateListVettedPackagesRequest,
  validateReadOptions,
  validateReassignmentRequest,
  validateStreamOptions,
  validateSubmitRequest,
  validateUpdatesCallOptions,
  validateUpdateUserRequest,
  validateUpdateVettedPackagesOptions,
  validateUpdateVettedPackagesRequest,
  validateUserRightsRequest,
} from './validation/index.js';
import { loadUndici } from './http/load-undici.js';
import { createTunnelConnector } from './http/create-tunnel-connector.js';
import type { ResolvedClientOptions } from './resolve-client-options.js';
import { createVersionGate, versionSupports } from './versions/version-gate.js';
import { watchParticipantConnections } from './versions/watch-participant-connections.js';
import { validateCompletionByHashRequest, validateUpdateByHashRequest } from './validation/validate-by-hash-requests.js';

/** The span attributes of an updates request: the range asked for, the page size and the order. */
/**
 * Options of the client's own undici `Agent`: with a proxy, every connection is a `CONNECT` tunnel
 * (`createTunnelConnector`, TLS inside it); without one, the TLS material as `connect` options.
 */
function agentOptions(resolved: ResolvedClientOptions): { connect: buildConnector.connector | buildConnector.BuildOptions } | undefined {
  if (resolved.proxy !== undefined) return { connect: createTunnelConnector(resolved.proxy, resolved.tls, resolved.timeoutMs) };
  return resolved.tls === undefined ? undefined : { connect: { ...resolved.tls } };
}

function offsetAttributes(beginExclusive: number | null | undefined, endInclusive: number | null | undefined, limit: number | null | undefined, descending: boolean | null | undefined) {
  return {
    'ledger_rx.begin_exclusive': beginExclusive ?? undefined,
    'ledger_rx.end_inclusive': endInclusive ?? undefined,
    'ledger_rx.limit': limit ?? undefined,
    'ledger_rx.descending': descending === true ? true : undefined,
  };
}

/**
 * Creates a {@link LedgerClient} for one participant's JSON Ledger API.
 *
 * Options are checked here: a bad `baseUrl` (or any other bad option) throws `InvalidArgumentError`
 * synchronously and nothing is created. Without `options.dispatcher` the client creates a private undici
 * `Agent` (the global dispatcher is never touched) that `close()` closes. No request is sent until a
 * method is called.
 *
 * ## Example
 * ```ts
 * const client = createLedgerClient({ baseUrl: 'http://localhost:7575', token: () => auth.currentJwt() });
 * const end = await client.ledgerEnd();
 * client.updates({ beginExclusive: end.offset ?? 0, updateFormat }, { limit: 200 }).subscribe(console.log);
 * await client.close();
 * ```
 *
 * @param options - see {@link LedgerClientOptions}.
 * @returns the client.
 * @throws InvalidArgumentError for an invalid option.
 */
export function createLedgerClient(options: LedgerClientOptions): LedgerClient {
  const resolved = resolveClientOptions(options);
  const ownsDispatcher = resolved.dispatcher === undefined;
  const dispatcher: Dispatcher = resolved.dispatcher ?? new (loadUndici().Agent)(agentOptions(resolved));
  const transport = createHttpTransport({ ...resolved, dispatcher });
  const sockets = createWebSocketTransport(resolved);
  let closing: Promise<void> | undefined;

  const unary = createUnaryMethods(transport, resolved.validateResponses);

  // Which endpoints the participant has (docs/participant-versions.md): its version, read once and again
  // after a lost connection; an operation it lacks rejects before anything but GET /v2/version is sent.
  const readVersion = unary.get('/v2/version', GetLedgerApiVersionResponse);
  const versions = createVersionGate((signal) => readVersion(signal === undefined ? {} : { signal }).then((r) => r.version), resolved.participantVersion);
  const stopWatching = watchParticipantConnections(dispatcher, resolved.baseUrl.origin, () => versions.invalidate());
  const sendVetting = unary.post(
    ({ endpoint }) => (endpoint === 'update' ? '/v2/package-vetting/update' : '/v2/package-vetting'),
    validateUpdateVettedPackagesRequest,
    UpdateVettedPackagesResponse,
    validateUpdateVettedPackagesOptions,
  );
  const sendUpdateByHash = unary.post('/v2/updates/update-by-hash', validateUpdateByHashRequest, JsGetUpdateResponse);
  const sendCompletionByHash = unary.post('/v2/commands/completion-by-hash', validateCompletionByHashRequest, GetCompletionByHashResponse);
  const activeContracts = createActiveContractsMethods({ http: transport, sockets, resolved });
  const completions = createCompletionsMethod({ http: transport, sockets, resolved });

  function prepareUpdates(request: GetUpdatesRequest, raw: UpdatesCallOptions | undefined) {
    const callOptions = validateUpdatesCallOptions(raw);
    const parsed = validateGetUpdatesRequest(request);
    const call: Omit<HttpCall, 'signal' | 'cancel'> = {
      method: 'POST',
      path: '/v2/updates',
      query: { limit: callOptions.limit, stream_idle_timeout_ms: callOptions.streamIdleTimeoutMs },
      body: toUpdatesBody(request, parsed.filter),
      spanAttributes: offsetAttributes(parsed.beginExclusive, parsed.endInclusive, callOptions.limit, parsed.descendingOrder),
    };
    return { call, decoding: updateDecoding(parsed, callOptions, resolved.validateResponses), signal: callOptions.signal, onBytes: callOptions.onBytes };
  }

  const client: LedgerClient = {
    checksElementOrder: true,
    ...activeContracts,
    async activeContractsPage(request, callOptions) {
      validateGetActiveContractsPageRequest(request);
      await versions.require('activeContractsPage', 'activeContractsPage', validateCallOptions(callOptions).signal);
      return activeContracts.activeContractsPage(request, callOptions);
    },
    completions(request, callOptions) {
      const read = completions(request, callOptions); // checks request and options first
      if (callOptions?.endpoint === 'completions') return read;
      return defer(() => from(versions.require('commandCompletions', 'completions', callOptions?.signal))).pipe(switchMap(() => read));
    },

    listVettedPackages: unary.post('/v2/package-vetting/list', validateListVettedPackagesRequest, ListVettedPackagesResponse),

    listAllVettedPackages(request, callOptions) {
      const options = validateCallOptions(callOptions) as ListAllVettedPackagesOptions;
      validateListVettedPackagesRequest(request);
      const outer = options.signal;
      const retryOptions: ListAllVettedPackagesRetry = {
        ...(options.retry === undefined ? {} : { retry: options.retry }),
        ...(options.scheduler === undefined ? {} : { scheduler: options.scheduler }),
      };
      resolveRetryConfig(options.retry); // a bad policy is rejected now, before anything is sent
      return listAllVettedPackages(
        (page, signal) => unary.send(
          { method: 'POST', path: '/v2/package-vetting/list', body: page, signal: outer, cancel: signal },
          ListVettedPackagesResponse,
        ),
        request,
        retryOptions,
      );
    },

    async updateVettedPackages(request, callOptions) {
      const options = validateUpdateVettedPackagesOptions(callOptions);
      validateUpdateVettedPackagesRequest(request);
      const endpoint = options.endpoint ?? ((await versions.supports('vettingUpdate', options.signal)) ? 'update' : 'deprecated');
      await versions.require(endpoint === 'update' ? 'vettingUpdate' : 'vettingUpdateAlias', 'updateVettedPackages', options.signal);
      return sendVetting(request, { ...options, endpoint });
    },

    async updateByHash(request, callOptions) {
      const options = validateCallOptions(callOptions);
      validateUpdateByHashRequest(request);
      await versions.require('updateByHash', 'updateByHash', options.signal);
      return sendUpdateByHash(request, options);
    },

    async completionByHash(request, callOptions) {
      const options = validateCallOptions(callOptions);
      validateCompletionByHashRequest(request);
      await versions.require('completionByHash', 'completionByHash', options.signal);
      return sendCompletionByHash(request, options);
    },

    async participantVersion(callOptions) {
      const version = await versions.version(validateCallOptions(callOptions).signal);
      return { version: version.text, supports: (operation) => versionSupports(version, operation) };
    },

    updates(request, callOptions) {
      const { call, decoding, signal, onBytes } = prepareUpdates(request, callOptions);
      return observeJsonList(transport, call, () => updateElementDecoder(decoding), signal, onBytes);
    },

    iterateUpdates(request, callOptions) {
      const { call, decoding, signal, onBytes } = prepareUpdates(request, callOptions);
      return iterateUpdates(transport, call, decoding, signal, onBytes);
    },

    streamUpdates(request, callOptions) {
      const options = validateStreamOptions<StreamUpdatesOptions>(callOptions);
      const parsed = validateGetUpdatesRequest(request);
      const body = toUpdatesBody(request, parsed.filter);
      const decoding = updateDecoding(parsed, options, resolved.validateResponses);
      return observeWebSocketStream(sockets, {
        path: '/v2/updates',
        body,
        bounded: body.endInclusive != null,
        frameDecoder: (label) => streamFrameDecoder('update', updateElementDecoder(decoding), label),
        options,
        refreshableToken: resolved.refreshableToken,
        spanAttributes: offsetAttributes(parsed.beginExclusive, parsed.endInclusive, undefined, parsed.descendingOrder),
      });
    },

    async updatesPage(request, callOptions) {
      const options = validateReadOptions<UpdatesPageCallOptions>(callOptions);
      const parsed = validateGetUpdatesPageRequest(request);
      await versions.require('updatesPage', 'updatesPage', options.signal);
      const order = { beginExclusive: parsed.beginOffsetExclusive ?? 0, endInclusive: parsed.endOffsetInclusive, descendingOrder: parsed.descendingOrder };
      return readUpdatesPage(
        transport,
        {
          method: 'POST',
          path: '/v2/updates/get-updates-page',
          body: request,
          spanAttributes: offsetAttributes(parsed.beginOffsetExclusive, parsed.endOffsetInclusive, parsed.maxPageSize, parsed.descendingOrder),
        },
        updateDecoding(order, options, resolved.validateResponses),
        options.signal,
        options.onBytes,
      );
    },

    submit: unary.post('/v2/commands/async/submit', validateSubmitRequest, SubmitResponse),
    submitAndWaitForReassignment: unary.post('/v2/commands/submit-and-wait-for-reassignment', validateReassignmentRequest, JsSubmitAndWaitForReassignmentResponse),
    updateUser: unary.patch(userPath(), validateUpdateUserRequest, UpdateUserResponse),
    revokeUserRights: unary.patch(userPath('/rights'), (userId, request) => validateUserRightsRequest('revoke', userId, request), RevokeUserRightsResponse),
    version: readVersion,
    ledgerEnd: unary.get('/v2/state/ledger-end', GetLedgerEndResponse),
    latestPrunedOffsets: unary.get('/v2/state/latest-pruned-offsets', GetLatestPrunedOffsetsResponse),
    allocateParty: unary.post('/v2/parties', (request) => parseRequest(AllocatePartyRequest, request), AllocatePartyResponse),
    listParties: unary.get('/v2/parties', ListKnownPartiesResponse),
    createUser: unary.post('/v2/users', validateCreateUserRequest, CreateUserResponse),
    getUser: unary.get(userPath(), GetUserResponse),
    listUserRights: unary.get(userPath('/rights'), ListUserRightsResponse),
    grantUserRights: unary.post(userPath('/rights'), (userId, request) => validateUserRightsRequest('grant', userId, request), GrantUserRightsResponse),
    listPackages: unary.get('/v2/packages', ListPackagesResponse),

    close() {
      closing ??= (async () => {
        stopWatching();
        transport.abortAll();
        sockets.abortAll();
        if (ownsDispatcher) await dispatcher.close();
      })();
      return closing;
    },
  };
  return client;
}
