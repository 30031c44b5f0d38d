import { concatMap, defer, from, switchMap, type Observable } from 'rxjs';
import type { z } from 'zod';
import { JsGetUpdatesPageResponse, type GetUpdatesPageRequest, type GetUpdatesRequest, type JsGetUpdatesResponse } from '../../schemas/index.js';
import { lazySchema } from '../../schemas/lazy-schema.js';
import { wireObject } from '../../schemas/wire-object.js';
import type { UpdatesPage } from '../../updates/updates-page.js';
import type { LedgerClient } from '../ledger-client.js';
import { updateDecoding, type UpdateDecoding } from '../../updates/update-decoding.js';
import { updateElementDecoder } from '../../updates/update-element-decoder.js';
import type { HttpCall, HttpTransport } from '../http/create-http-transport.js';
import type { ResolvedClientOptions } from '../resolve-client-options.js';
import { validateGetUpdatesPageRequest, validateGetUpdatesRequest, validateReadOptions, validateStreamOptions, validateUpdatesOptions } from '../validation/index.js';
import type { WebSocketTransport } from '../websocket/create-websocket-transport.js';
import { observeRead } from './observe-read.js';
import { iterateRead } from './iterate-read.js';
import { iterateList } from './iterate-list.js';
import { readPage } from './read-page.js';
import { toUpdatesBody } from './to-updates-body.js';
import type { UpdatesOptions } from '../../updates/updates-options.js';
import type { UpdatesPageOptions } from './updates-page-options.js';
import { walkPages } from './walk-pages.js';

/** What the update reads use of the client. */
export interface UpdatesDeps {
  readonly http: HttpTransport;
  readonly sockets: WebSocketTransport;
  readonly resolved: ResolvedClientOptions;
  /** Rejects (`UnsupportedByParticipantVersionError`) when the participant has no `get-updates-page`. */
  readonly requirePages: (clientOperation: string, signal: AbortSignal | undefined) => Promise<void>;
}

const pagePath = '/v2/updates/get-updates-page';
const PageBounds = lazySchema(() => wireObject(JsGetUpdatesPageResponse).omit({ updates: true }) as unknown as z.ZodType<Omit<JsGetUpdatesPageResponse, 'updates'>>);

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
 * The client's update reads, one request (or one walk over pages) per subscription, arguments validated
 * before anything is sent (`validateUpdatesOptions`, `validateGetUpdatesRequest`), each element through
 * `updateElementDecoder` (validation, the order and range check against the request, `rawText`):
 * - `updates(request, { transport })`: `list` (`POST /v2/updates`) or `websocket` (`GET /v2/updates`), both
 *   through `observeRead`, or `page` (`walkPages` over `get-updates-page` with the
 *   request's offsets, format and order, ONE decoder across the pages, so the order is checked across them;
 *   it completes after the page without a next token, and an ascending read without `endInclusive` after
 *   its first empty page: the ledger end as of that page);
 * - `iterateUpdates`: the same read as an async iterable (`list` pulls the body; the others through `iterateRead`);
 * - `updatesPage`: one page (`readPage`).
 */
export function createUpdatesMethods(deps: UpdatesDeps): Pick<LedgerClient, 'updates' | 'iterateUpdates' | 'streamUpdates' | 'updatesPage'> {
  const { http, resolved } = deps;

  /**
   * One `get-updates-page` page (`readPage`): each update through `decode` (one decoder for the pages of a
   * walk checks the order across them), the bounds checked against the schema when `validate` is set.
   */
  const readUpdatesPage = (call: Omit<HttpCall, 'signal'>, decode: ReturnType<typeof updateElementDecoder>, validate: boolean, signal: AbortSignal | undefined, onBytes: ((bytes: number) => void) | undefined): Promise<UpdatesPage> =>
    readPage(http, call, { arrayKey: 'updates', decode, members: PageBounds, component: 'JsGetUpdatesPageResponse', validate }, signal, onBytes).then(({ elements, members, nextPageToken }) => ({
      updates: elements,
      lowestPageOffsetExclusive: members.lowestPageOffsetExclusive,
      highestPageOffsetInclusive: members.highestPageOffsetInclusive,
      nextPageToken,
    }));

  function prepared(request: GetUpdatesRequest, options: UpdatesOptions) {
    const parsed = validateGetUpdatesRequest(request);
    return { parsed, body: toUpdatesBody(request, parsed.filter), decoding: updateDecoding(parsed, options, resolved.validateResponses) };
  }
  type Prepared = ReturnType<typeof prepared>;

  /** The list or WebSocket read of a prepared request (the span's `limit` only where one is asked for). */
  function streamed({ parsed, body, decoding }: Prepared, transport: 'list' | 'websocket', options: UpdatesOptions) {
    const limit = transport === 'list' ? options.limit : undefined;
    const query = { limit: options.limit, stream_idle_timeout_ms: options.streamIdleTimeoutMs };
    const spanAttributes = offsetAttributes(parsed.beginExclusive, parsed.endInclusive, limit, parsed.descendingOrder);
    return { path: '/v2/updates', body, query, frameKey: 'update', bounded: body.endInclusive != null, decoder: () => updateElementDecoder(decoding), spanAttributes };
  }

  function pages({ parsed, body, decoding }: Prepared, options: UpdatesOptions): Observable<JsGetUpdatesResponse> {
    const { signal, onBytes, pageSize } = options;
    const first: GetUpdatesPageRequest = {
      updateFormat: body.updateFormat as NonNullable<typeof body.updateFormat>,
      beginOffsetExclusive: parsed.beginExclusive,
      ...(parsed.endInclusive == null ? {} : { endOffsetInclusive: parsed.endInclusive }),
      ...(parsed.descendingOrder == null ? {} : { descendingOrder: parsed.descendingOrder }),
      ...(pageSize === undefined ? {} : { maxPageSize: pageSize }),
    };
    const openEnded = parsed.endInclusive == null && parsed.descendingOrder !== true;
    const spanAttributes = offsetAttributes(parsed.beginExclusive, parsed.endInclusive, pageSize, parsed.descendingOrder);
    return defer(() => from(deps.requirePages('updates', signal))).pipe(
      switchMap(() => {
        const decode = updateElementDecoder(decoding);
        return walkPages({
          fetch: (pageToken, cancel) =>
            readUpdatesPage({ method: 'POST', path: pagePath, body: pageToken === undefined ? first : { ...first, pageToken }, spanAttributes, cancel }, decode, decoding.validate, signal, onBytes),
          next: (page) => (openEnded && page.updates.length === 0 ? undefined : page.nextPageToken),
          paused: options.paused,
          endpoint: `POST ${pagePath}`,
        });
      }),
      concatMap((page) => page.updates),
    );
  }

  function read(request: GetUpdatesRequest, options: UpdatesOptions): Observable<JsGetUpdatesResponse> {
    const ready = prepared(request, options);
    if (options.transport === 'page') return pages(ready, options);
    const transport = options.transport === 'websocket' ? 'websocket' : 'list';
    return observeRead(deps, transport, streamed(ready, transport, options), options);
  }

  return {
    updates: (request, callOptions) => read(request, validateUpdatesOptions(callOptions)),

    iterateUpdates(request, callOptions) {
      const options = validateUpdatesOptions(callOptions);
      if (options.transport === 'websocket' || options.transport === 'page') {
        const { paused, ...rest } = options;
        read(request, rest); // checks the request now, before the loop starts
        return iterateRead((inner) => read(request, { ...rest, paused: inner }), paused);
      }
      const ready = prepared(request, options);
      return iterateList(http, streamed(ready, 'list', options), options.signal, options.onBytes);
    },

    // the deprecated alias: the options of a WebSocket read as they were checked before (others ignored)
    streamUpdates: (request, callOptions) => {
      const options = validateStreamOptions<UpdatesOptions>(callOptions);
      return observeRead(deps, 'websocket', streamed(prepared(request, options), 'websocket', options), options);
    },

    async updatesPage(request, callOptions) {
      const options = validateReadOptions<UpdatesPageOptions>(callOptions);
      const parsed = validateGetUpdatesPageRequest(request);
      await deps.requirePages('updatesPage', options.signal);
      const order = { beginExclusive: parsed.beginOffsetExclusive ?? 0, endInclusive: parsed.endOffsetInclusive, descendingOrder: parsed.descendingOrder };
      const decoding: UpdateDecoding = updateDecoding(order, options, resolved.validateResponses);
      const spanAttributes = offsetAttributes(parsed.beginOffsetExclusive, parsed.endOffsetInclusive, parsed.maxPageSize, parsed.descendingOrder);
      return readUpdatesPage({ method: 'POST', path: pagePath, body: request, spanAttributes }, updateElementDecoder(decoding), decoding.validate, options.signal, options.onBytes);
    },
  };
}
