import { requireReadAs } from '../auth/authorize.js';
import { requireUpdateReadClaims } from '../auth/require-update-read-claims.js';
import { decodeGetUpdatesPageRequest } from '../decode/decode-get-updates-page-request.js';
import type { Route } from '../http/request-context.js';
import { readUpdatesPage } from '../read/read-updates-page.js';
import { prepareUpdatesPage } from '../validate/prepare-updates-page.js';

/**
 * `POST /v2/updates/get-updates-page` (`GetUpdatesPageRequest` → `JsGetUpdatesPageResponse`): the body is
 * decoded (400 text/plain), the caller authorized for the update format (`ReadAs` per party key,
 * `ReadAsAnyParty` for any-party filters; no party right without a format), then
 * {@link prepareUpdatesPage} validates and {@link readUpdatesPage} reads the page. The default page is
 * `defaultUpdatesPageSize` (100), the largest `maxUpdatesPageSize` (2000); a larger one is an error, never
 * a 413. The answer: `{updates, lowestPageOffsetExclusive, highestPageOffsetInclusive, nextPageToken}`,
 * `nextPageToken` `null` on the last page.
 */
export const updatesPageRoutes: readonly Route[] = [
  {
    method: 'POST',
    pattern: '/v2/updates/get-updates-page',
    handler: async (ctx) => {
      const request = decodeGetUpdatesPageRequest(await ctx.body());
      const claims = await ctx.claims();
      if (request.updateFormat) requireUpdateReadClaims(claims, request.updateFormat);
      else requireReadAs(claims, [], false);
      const page = await readUpdatesPage(ctx.state.ledger, prepareUpdatesPage(ctx.state, request));
      const body =
        `{"updates":[${page.updates.join(',')}],"lowestPageOffsetExclusive":${page.lowestPageOffsetExclusive},` +
        `"highestPageOffsetInclusive":${page.highestPageOffsetInclusive},"nextPageToken":${page.nextPageToken === undefined ? 'null' : JSON.stringify(page.nextPageToken)}}`;
      ctx.res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      ctx.res.end(body);
      return { handled: true };
    },
  },
];
