import type { buildConnector, Dispatcher } from 'undici';
import { concatMap, defer, from, switchMap } from 'rxjs';
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
} from '../schemas/index.js';
import { createActiveContractsMethods } from './reads/create-active-contracts-methods.js';
import { createCompletionsMethod } from './reads/create-completions-method.js';
import { createUpdatesMethods } from './reads/create-updates-methods.js';
import { walkPages } from './reads/walk-pages.js';
import { createHttpTransport } from './http/create-http-transport.js';
import { createWebSocketTransport } from './websocket/create-websocket-transport.js';
import { createUnaryMethods } from './unary/create-unary-methods.js';
import type { LedgerClient } from './ledger-client.js';
import type { LedgerClientOptions } from './ledger-client-options.js';
import { resolveClientOptions } from './resolve-client-options.js';
import { userPath } from './unary/user-path.js';
import {
  parseRequest,
  validateCallOptions,
  validateCreateUserRequest,
  validateGetActiveContractsPageRequest,
  validateListVettedPackagesRequest,
  validateReassignmentRequest,
  validateSubmitRequest,
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

/**
 * Options of the client's own undici `Agent`: with a proxy, every connection is a `CONNECT` tunnel
 * (`createTunnelConnector`, TLS inside it); without one, the TLS material as `connect` options.
 */
function agentOptions(resolved: ResolvedClientOptions): { connect: buildConnector.connector | buildConnector.BuildOptions } | undefined {
  if (resolved.proxy !== undefined) return { connect: createTunnelConnector(resolved.proxy, resolved.tls, resolved.timeoutMs) };
  return resolved.tls === undefined ? undefined : { connect: { ...resolved.tls } };
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
  const updates = createUpdatesMethods({
    http: transport,
    sockets,
    resolved,
    requirePages: (clientOperation, signal) => versions.require('updatesPage', clientOperation, signal),
  });

  const client: LedgerClient = {
    checksElementOrder: true,
    transports: ['list', 'page', 'websocket'],
    ...updates,
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
      const { signal } = validateCallOptions(callOptions);
      validateListVettedPackagesRequest(request);
      const path = '/v2/package-vetting/list';
      return walkPages({
        fetch: (pageToken, cancel) => unary.send({ method: 'POST', path, body: { ...request, pageToken }, signal, cancel }, ListVettedPackagesResponse),
        // the last page is an empty one (docs/server-behavior.md#vetting-list-paging-and-order); an empty token ends it too
        next: (page) => ((page.vettedPackages ?? []).length === 0 || !page.nextPageToken ? undefined : page.nextPageToken),
        firstToken: request.pageToken ?? '',
        endpoint: `POST ${path}`,
      }).pipe(concatMap((page) => page.vettedPackages ?? []));
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
