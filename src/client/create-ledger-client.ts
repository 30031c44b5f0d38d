import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import {
  AllocatePartyRequest,
  AllocatePartyResponse,
  CreateUserResponse,
  GetLatestPrunedOffsetsResponse,
  GetLedgerApiVersionResponse,
  GetLedgerEndResponse,
  GetUserResponse,
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
import { createActiveContractsMethods } from './create-active-contracts-methods.js';
import { createCompletionsMethod } from './create-completions-method.js';
import { createHttpTransport, type HttpCall } from './create-http-transport.js';
import { createWebSocketTransport } from './create-websocket-transport.js';
import { createResponseParser } from './create-response-parser.js';
import { iterateUpdates } from './iterate-updates.js';
import type { LedgerClient } from './ledger-client.js';
import type { LedgerClientOptions } from './ledger-client-options.js';
import { listAllVettedPackages, type ListAllVettedPackagesRetry } from './list-all-vetted-packages.js';
import { resolveRetryConfig } from '../retry/resolve-retry-config.js';
import type { ListAllVettedPackagesOptions } from './ledger-client.js';
import { observeWebSocketStream } from './observe-websocket-stream.js';
import { observeJsonList } from './observe-json-list.js';
import { readUpdatesPage } from './read-updates-page.js';
import { resolveClientOptions } from './resolve-client-options.js';
import { toUpdatesBody } from './to-updates-body.js';
import { userPath } from './user-path.js';
import { updateDecoding } from '../updates/update-decoding.js';
import { updateElementDecoder } from '../updates/update-element-decoder.js';
import { streamFrameDecoder } from './stream-frame-decoder.js';
import type { StreamUpdatesOptions } from './stream-updates-options.js';
import type { UpdatesCallOptions } from './updates-call-options.js';
import type { UpdatesPageCallOptions } from './updates-page-call-options.js';
import {
  parseRequest,
  validateCallOptions,
  validateCreateUserRequest,
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
import { loadUndici } from './load-undici.js';

/** The span attributes of an updates request: the range asked for, the page size and the order. */
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
  const dispatcher: Dispatcher = resolved.dispatcher ?? new (loadUndici().Agent)();
  const transport = createHttpTransport({ ...resolved, dispatcher });
  const sockets = createWebSocketTransport(resolved);
  let closing: Promise<void> | undefined;

  function unary<S extends z.ZodType>(call: HttpCall, schema: S): Promise<z.output<S>> {
    return transport.call(call, createResponseParser(schema, resolved.validateResponses, `${call.method} ${call.path}`));
  }

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
    ...createActiveContractsMethods({ http: transport, sockets, resolved }),
    completions: createCompletionsMethod({ http: transport, sockets, resolved }),

    async listVettedPackages(request, callOptions) {
      const { signal } = validateCallOptions(callOptions);
      validateListVettedPackagesRequest(request);
      return unary({ method: 'POST', path: '/v2/package-vetting/list', body: request, signal }, ListVettedPackagesResponse);
    },

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
        (page, signal) => unary(
          { method: 'POST', path: '/v2/package-vetting/list', body: page, signal: outer, cancel: signal },
          ListVettedPackagesResponse,
        ),
        request,
        retryOptions,
      );
    },

    async updateVettedPackages(request, callOptions) {
      const { signal, endpoint = 'deprecated' } = validateUpdateVettedPackagesOptions(callOptions);
      validateUpdateVettedPackagesRequest(request);
      const path = endpoint === 'update' ? '/v2/package-vetting/update' : '/v2/package-vetting';
      return unary({ method: 'POST', path, body: request, signal }, UpdateVettedPackagesResponse);
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

    async submit(commands, callOptions) {
      const { signal } = validateCallOptions(callOptions);
      validateSubmitRequest(commands);
      return unary({ method: 'POST', path: '/v2/commands/async/submit', body: commands, signal }, SubmitResponse);
    },

    async submitAndWaitForReassignment(request, callOptions) {
      const { signal } = validateCallOptions(callOptions);
      validateReassignmentRequest(request);
      return unary(
        { method: 'POST', path: '/v2/commands/submit-and-wait-for-reassignment', body: request, signal },
        JsSubmitAndWaitForReassignmentResponse,
      );
    },

    async updateUser(userId, request, callOptions) {
      const { signal } = validateCallOptions(callOptions);
      validateUpdateUserRequest(userId, request);
      return unary({ method: 'PATCH', ...userPath(userId), body: request, signal }, UpdateUserResponse);
    },

    async revokeUserRights(userId, request, callOptions) {
      const { signal } = validateCallOptions(callOptions);
      validateUserRightsRequest('revoke', userId, request);
      return unary({ method: 'PATCH', ...userPath(userId, '/rights'), body: request, signal }, RevokeUserRightsResponse);
    },

    async version(callOptions) {
      const { signal } = validateCallOptions(callOptions);
      return unary({ method: 'GET', path: '/v2/version', signal }, GetLedgerApiVersionResponse);
    },

    async ledgerEnd(callOptions) {
      const { signal } = validateCallOptions(callOptions);
      return unary({ method: 'GET', path: '/v2/state/ledger-end', signal }, GetLedgerEndResponse);
    },

    async latestPrunedOffsets(callOptions) {
      const { signal } = validateCallOptions(callOptions);
      return unary({ method: 'GET', path: '/v2/state/latest-pruned-offsets', signal }, GetLatestPrunedOffsetsResponse);
    },

    async allocateParty(request, callOptions) {
      const { signal } = validateCallOptions(callOptions);
      parseRequest(AllocatePartyRequest, request);
      return unary({ method: 'POST', path: '/v2/parties', body: request, signal }, AllocatePartyResponse);
    },

    async listParties(callOptions) {
      const { signal } = validateCallOptions(callOptions);
      return unary({ method: 'GET', path: '/v2/parties', signal }, ListKnownPartiesResponse);
    },

    async createUser(request, callOptions) {
      const { signal } = validateCallOptions(callOptions);
      validateCreateUserRequest(request);
      return unary({ method: 'POST', path: '/v2/users', body: request, signal }, CreateUserResponse);
    },

    async getUser(userId, callOptions) {
      const { signal } = validateCallOptions(callOptions);
      return unary({ method: 'GET', ...userPath(userId), signal }, GetUserResponse);
    },

    async listUserRights(userId, callOptions) {
      const { signal } = validateCallOptions(callOptions);
      return unary({ method: 'GET', ...userPath(userId, '/rights'), signal }, ListUserRightsResponse);
    },

    async grantUserRights(userId, request, callOptions) {
      const { signal } = validateCallOptions(callOptions);
      validateUserRightsRequest('grant', userId, request);
      return unary({ method: 'POST', ...userPath(userId, '/rights'), body: request, signal }, GrantUserRightsResponse);
    },

    async listPackages(callOptions) {
      const { signal } = validateCallOptions(callOptions);
      return unary({ method: 'GET', path: '/v2/packages', signal }, ListPackagesResponse);
    },

    close() {
      closing ??= (async () => {
        transport.abortAll();
        sockets.abortAll();
        if (ownsDispatcher) await dispatcher.close();
      })();
      return closing;
    },
  };
  return client;
}
