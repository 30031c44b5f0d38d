import type { z } from 'zod';
import { concatMap, defer, map, of, tap, type Observable } from 'rxjs';
import { activeContractsElementDecoder, type ActiveContractsDecoding } from '../../active-contracts/active-contracts-element-decoder.js';
import { GetLedgerEndResponse, JsGetActiveContractsPageResponse, type GetActiveContractsPageRequest, type JsGetActiveContractsResponse } from '../../schemas/index.js';
import { lazySchema } from '../../schemas/lazy-schema.js';
import { wireObject } from '../../schemas/wire-object.js';
import type { ActiveContractsOptions, ActiveContractsPageOptions, ActiveContractsRequest } from './active-contracts-options.js';
import type { ActiveContractsPage } from '../../active-contracts/active-contracts-page.js';
import type { HttpCall } from '../http/create-http-transport.js';
import type { UpdatesDeps } from './create-updates-methods.js';
import { createResponseParser } from '../http/create-response-parser.js';
import { fromAbortable } from '../http/from-abortable.js';
import { observeRead } from './observe-read.js';
import { readPage } from './read-page.js';
import { walkPages } from './walk-pages.js';
import { toActiveContractsBody } from './to-active-contracts-body.js';
import { validateActiveContractsOptions, validateGetActiveContractsPageRequest, validateGetActiveContractsRequest, validateReadOptions } from '../validation/index.js';

/** What the active-contracts methods use of the client. */
export type ActiveContractsDeps = Omit<UpdatesDeps, 'requirePages'>;

const PageMembers = lazySchema(
  () => wireObject(JsGetActiveContractsPageResponse).omit({ activeContracts: true }) as unknown as z.ZodType<Omit<JsGetActiveContractsPageResponse, 'activeContracts'>>,
);
const pagePath = '/v2/state/active-contracts-page';

/** One page of the snapshot; the caller's `signal` aborts it, and so does `cancel` (an unsubscribed read). */
function fetchPage(
  deps: ActiveContractsDeps,
  request: GetActiveContractsPageRequest,
  decoding: ActiveContractsDecoding,
  signal: AbortSignal | undefined,
  cancel: AbortSignal | undefined,
  onBytes: ((bytes: number) => void) | undefined,
): Promise<ActiveContractsPage> {
  const call: Omit<HttpCall, 'signal'> = { method: 'GET', path: pagePath, body: request, cancel };
  return readPage(
    deps.http,
    call,
    { arrayKey: 'activeContracts', decode: activeContractsElementDecoder(decoding), members: PageMembers, component: 'JsGetActiveContractsPageResponse', validate: decoding.validate },
    signal,
    onBytes,
  ).then(({ elements, members, nextPageToken }) => ({ activeContracts: elements, activeAtOffset: members.activeAtOffset, nextPageToken }));
}

/**
 * The client's active-contracts methods (see `LedgerClient.activeContracts` and `activeContractsPage`):
 * arguments validated before anything is sent. `activeContracts` is ONE read, never retried
 * (`activeContractsSnapshot` in the operators resumes it): the offset is fixed before the first entry (the
 * request's, else the ledger end, looked up first for the WebSocket and the list, chosen by the participant
 * on the first page) and reported once through `onActiveAtOffset`; then one WebSocket stream or one list
 * (from the request's `streamContinuationToken`), or page after page with the page tokens (`walkPages`).
 * Errors with the first failure.
 */
export function createActiveContractsMethods(deps: ActiveContractsDeps): {
  activeContracts(request: ActiveContractsRequest, options?: ActiveContractsOptions): Observable<JsGetActiveContractsResponse>;
  activeContractsPage(request: GetActiveContractsPageRequest, options?: ActiveContractsPageOptions): Promise<ActiveContractsPage>;
} {
  const { http, resolved } = deps;
  return {
    activeContracts(request, callOptions) {
      const options = validateActiveContractsOptions(callOptions);
      const parsed = validateGetActiveContractsRequest(request);
      const body = toActiveContractsBody(request, parsed.filter);
      const decoding: ActiveContractsDecoding = { validate: options.validate ?? resolved.validateResponses, rawText: options.rawText ?? false };
      const { signal, onBytes, paused, pageSize, onActiveAtOffset } = options;
      const activeAt = parsed.activeAtOffset ?? undefined;
      if (options.transport === 'page') {
        return defer(() => {
          let reported = false;
          const pageRequest = { eventFormat: body.eventFormat, ...(activeAt === undefined ? {} : { activeAtOffset: activeAt }), ...(pageSize === undefined ? {} : { maxPageSize: pageSize }) };
          return walkPages({
            fetch: (pageToken, cancel) => fetchPage(deps, pageToken === undefined ? pageRequest : { ...pageRequest, pageToken }, decoding, signal, cancel, onBytes),
            next: (p) => p.nextPageToken,
            paused,
            endpoint: `GET ${pagePath}`,
          }).pipe(
            tap((p) => {
              if (!reported) onActiveAtOffset?.(p.activeAtOffset);
              reported = true;
            }),
            concatMap((p) => p.activeContracts),
          );
        });
      }
      const token = parsed.streamContinuationToken == null || parsed.streamContinuationToken === '' ? {} : { streamContinuationToken: parsed.streamContinuationToken };
      const ledgerEnd = () =>
        fromAbortable((cancel) =>
          http.call({ method: 'GET', path: '/v2/state/ledger-end', signal, cancel }, createResponseParser(GetLedgerEndResponse, resolved.validateResponses, 'GET /v2/state/ledger-end')),
        ).pipe(map((end) => end.offset ?? 0));
      return (activeAt === undefined ? ledgerEnd() : of(activeAt)).pipe(
        concatMap((at) => {
          onActiveAtOffset?.(at);
          const read = { path: '/v2/state/active-contracts', body: { ...body, activeAtOffset: at, ...token }, frameKey: 'contractEntry', bounded: true, decoder: () => activeContractsElementDecoder(decoding) };
          return observeRead(deps, options.transport === 'list' ? 'list' : 'websocket', read, { signal, onBytes, paused });
        }),
      );
    },

    async activeContractsPage(request, callOptions) {
      const options = validateReadOptions<ActiveContractsPageOptions>(callOptions);
      validateGetActiveContractsPageRequest(request);
      const decoding = { validate: options.validate ?? resolved.validateResponses, rawText: options.rawText ?? false };
      return fetchPage(deps, request, decoding, options.signal, undefined, options.onBytes);
    },
  };
}
