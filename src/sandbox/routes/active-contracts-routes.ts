import { openStreamGuard } from '../auth/open-stream-guard.js';
import { decodeGetActiveContractsPageRequest } from '../decode/decode-get-active-contracts-page-request.js';
import { decodeGetActiveContractsRequest } from '../decode/decode-get-active-contracts-request.js';
import { queryInt64 } from '../decode/query-int64.js';
import type { Route } from '../http/request-context.js';
import { readActiveContracts } from '../read/read-active-contracts.js';
import { serveList } from '../serve/serve-list.js';
import { acsTokens, acsTokenVersion } from '../validate/acs-tokens.js';
import { prepareActiveContracts, prepareActiveContractsPage } from '../validate/prepare-active-contracts.js';

/**
 * The active contracts at an offset, as an HTTP list and as pages:
 *
 * - `POST /v2/state/active-contracts` (`GetActiveContractsRequest` → `[JsGetActiveContractsResponse]`):
 *   validated by {@link prepareActiveContracts}; the list rules of the JSON API (`limit`, at most N
 *   elements, else 413; the snapshot is bounded, so no idle timer unless `stream_idle_timeout_ms` asks for
 *   one); each element carries its `streamContinuationToken`.
 * - `GET /v2/state/active-contracts-page` (a JSON body on a GET, as the spec declares it;
 *   `GetActiveContractsPageRequest` → `JsGetActiveContractsPageResponse`): validated by
 *   {@link prepareActiveContractsPage}; up to `maxPageSize` entries with empty continuation tokens, the
 *   `activeAtOffset` used (the ledger end when none was given) and a `nextPageToken` when more entries
 *   follow (`null` on the last page).
 */
export const activeContractsRoutes: readonly Route[] = [
  {
    method: 'POST',
    pattern: '/v2/state/active-contracts',
    handler: async (ctx) => {
      const limit = queryInt64(ctx.query, 'limit');
      queryInt64(ctx.query, 'stream_idle_timeout_ms');
      const request = decodeGetActiveContractsRequest(await ctx.body());
      const read = await prepareActiveContracts(ctx.state, request, () => ctx.claims());
      const n = ctx.options.maxListElements;
      const guard = openStreamGuard(ctx.state, read.claims, ctx.signal, { transport: 'http', path: '/v2/state/active-contracts' });
      try {
        await serveList(ctx.res, n, guard, (sink) =>
          readActiveContracts(ctx.state.ledger, read, sink, guard.signal, { limit: Math.min(limit ?? n + 1, n + 1), withTokens: true, guard }),
        );
      } finally {
        guard.close();
      }
      return { handled: true };
    },
  },
  {
    method: 'GET',
    pattern: '/v2/state/active-contracts-page',
    handler: async (ctx) => {
      const request = decodeGetActiveContractsPageRequest(await ctx.body());
      const page = await prepareActiveContractsPage(ctx.state, request, () => ctx.claims());
      const elements: string[] = [];
      const sink = { element: (json: string) => void elements.push(json), idle() {} };
      const positions = await readActiveContracts(ctx.state.ledger, page, sink, ctx.signal, { limit: page.maxPageSize + 1, withTokens: false });
      const next = positions[page.maxPageSize];
      const token =
        next === undefined
          ? 'null'
          : JSON.stringify(
              acsTokens.page({
                continuation: acsTokens.continuation(next, acsTokens.emptyChecksum),
                activeAtOffset: page.activeAtOffset,
                version: acsTokenVersion,
                participantChecksum: page.participantChecksum,
                requestChecksum: page.requestChecksum,
              }),
            );
      const body = `{"activeContracts":[${elements.slice(0, page.maxPageSize).join(',')}],"activeAtOffset":${page.activeAtOffset},"nextPageToken":${token}}`;
      ctx.res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      ctx.res.end(body);
      return { handled: true };
    },
  },
];
