import { openStreamGuard } from '../auth/open-stream-guard.js';
import { decodeGetUpdatesRequest } from '../decode/decode-get-updates-request.js';
import { queryInt64 } from '../decode/query-int64.js';
import type { Route } from '../http/request-context.js';
import { createUpdateRenderer } from '../render/create-update-renderer.js';
import { serveUpdates } from '../serve/serve-updates.js';
import { prepareUpdatesRead } from '../validate/prepare-updates-read.js';

/**
 * `POST /v2/updates?limit=&stream_idle_timeout_ms=`: the update stream as a bounded list, validated in
 * the server's order (docs/server-behavior.md#updates-validation-order) and completed by its algorithm (docs/server-behavior.md#updates-list-completion): query parameters, then
 * the body, decoded (400 text/plain), then {@link prepareUpdatesRead} (`begin == end` ⇒ `[]`). While the
 * list is collected the stream's ongoing authorization applies (`ACCESS_TOKEN_EXPIRED`,
 * `STALE_STREAM_AUTHORIZATION`, both 409, fail the whole request).
 *
 * Then `cap = min(limit ?? N+1, N+1)` (N = `maxListElements`); the idle timer runs iff the read is
 * open-ended or `stream_idle_timeout_ms` is given, for `stream_idle_timeout_ms ?? listWaitMs` (a value
 * ≤ 0 ends the read as soon as it is caught up). More than N elements ⇒ 413. In `streamed` mode a given
 * `limit` is honoured as is (see {@link serveUpdates}). The deprecated `verbose` flag changes nothing:
 * the JSON rendering is label-full either way.
 */
export const updatesRoutes: readonly Route[] = [
  {
    method: 'POST',
    pattern: '/v2/updates',
    handler: async (ctx) => {
      const limit = queryInt64(ctx.query, 'limit');
      const idleParam = queryInt64(ctx.query, 'stream_idle_timeout_ms');
      const request = decodeGetUpdatesRequest(await ctx.body());
      const read = await prepareUpdatesRead(ctx.state.ledger, request, () => ctx.claims());
      const { beginExclusive: begin, endInclusive: end, empty } = read;
      const ledger = ctx.state.ledger;

      const n = ctx.options.maxListElements;
      const streamed = ctx.options.responseMode === 'streamed' && limit !== undefined;
      const cap = empty ? 0 : streamed ? (limit as number) : Math.min(limit ?? n + 1, n + 1);
      const idleMs = end === undefined || idleParam !== undefined ? Math.max(0, idleParam ?? ctx.options.listWaitMs) : undefined;
      const guard = openStreamGuard(ctx.state, read.claims, ctx.signal, { transport: 'http', path: '/v2/updates' });
      try {
        await serveUpdates(
          ctx.res,
          ledger,
          ctx.state.faults,
          createUpdateRenderer(ledger, read.format),
          { beginExclusive: begin, endInclusive: end, descending: read.descending, cap, idleMs, checkpointProbeMs: ctx.options.idleCheckpointIntervalMs },
          { mode: ctx.options.responseMode, maxListElements: n, limitGiven: limit !== undefined },
          guard,
        );
      } finally {
        guard.close();
      }
      return { handled: true };
    },
  },
];
