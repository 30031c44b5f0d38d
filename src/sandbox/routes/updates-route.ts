import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { Route } from '../http/request-context.js';
import { compileUpdateFormat } from '../format/compile-update-format.js';
import { createUpdateRenderer } from '../render/create-update-renderer.js';
import { decodeGetUpdatesRequest } from '../decode/decode-get-updates-request.js';
import { queryInt64 } from '../decode/query-int64.js';
import { requireUpdateReadClaims } from '../auth/require-update-read-claims.js';
import { requestErrors } from '../errors/request-errors.js';
import { resolveUpdateFormat } from '../validate/resolve-update-format.js';
import { serveUpdates } from '../serve/serve-updates.js';
import { validateUpdateFormat } from '../validate/validate-update-format.js';

/**
 * `POST /v2/updates?limit=&stream_idle_timeout_ms=`: the update stream as a bounded list, validated in
 * the server's order (server-behavior §4.2) and completed by its algorithm (§4.3):
 *
 * 1. query parameters, then the body, decoded (400 text/plain);
 * 2. the `filter`/`verbose`/`updateFormat` combination (gRPC-shaped `INVALID_ARGUMENT`);
 * 3. authorization (§1.2: `ReadAs` per party key, `ReadAsAnyParty` for any-party filters and for
 *    topology events of every party);
 * 4. offsets against the ledger end at request time (`NEGATIVE_OFFSET`, `DESCENDING_ORDER_MISSING_END`,
 *    `NON_POSITIVE_OFFSET`, `OFFSET_AFTER_LEDGER_END` for begin then end), then the update format;
 * 5. filter references (`PACKAGE_NAMES_NOT_FOUND`, `NO_TEMPLATES_…`, `NO_INTERFACE_…`, all 404), then
 *    `begin == end` ⇒ `[]` and `begin > end` ⇒ `OFFSET_OUT_OF_RANGE`;
 * 6. `beginExclusive` below the pruning offset ⇒ `PARTICIPANT_PRUNED_DATA_ACCESSED` (`earliest_offset`).
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
      const format = resolveUpdateFormat(request);
      requireUpdateReadClaims(await ctx.claims(), format);

      const ledger = ctx.state.ledger;
      const ledgerEnd = ledger.ledgerEnd();
      const begin = request.beginExclusive;
      const end = request.endInclusive;
      if (begin < 0) throw requestErrors.negativeOffset('begin_exclusive', begin);
      if (request.descendingOrder && end === undefined) {
        throw SandboxError.grpc(ErrorDefs.DESCENDING_ORDER_MISSING_END, 'end_inclusive is not provided when descending_order is true');
      }
      if (end !== undefined && end <= 0) {
        throw SandboxError.grpc(
          ErrorDefs.NON_POSITIVE_OFFSET,
          `Offset ${end} in end_inclusive is not a positive integer: the offset has to be either a positive integer (>0) or not defined at all`,
        );
      }
      if (begin > ledgerEnd) throw SandboxError.grpc(ErrorDefs.OFFSET_AFTER_LEDGER_END, `Begin offset (${begin}) is after ledger end (${ledgerEnd})`);
      if (end !== undefined && end > ledgerEnd) {
        throw SandboxError.grpc(ErrorDefs.OFFSET_AFTER_LEDGER_END, `End offset (${end}) is after ledger end (${ledgerEnd})`);
      }
      validateUpdateFormat(format);
      const compiled = compileUpdateFormat(format, ledger.catalog);
      const empty = end !== undefined && begin === end;
      if (end !== undefined && begin > end) throw SandboxError.grpc(ErrorDefs.OFFSET_OUT_OF_RANGE, `End offset ${end} is before begin offset ${begin}.`);
      const pruned = ledger.prunedOffset();
      if (!empty && begin < pruned) {
        throw SandboxError.grpc(
          ErrorDefs.PARTICIPANT_PRUNED_DATA_ACCESSED,
          `Updates request from ${begin + 1} to ${end ?? ledgerEnd} precedes pruned offset ${pruned}`,
          { context: { earliest_offset: String(pruned) } },
        );
      }

      const n = ctx.options.maxListElements;
      const streamed = ctx.options.responseMode === 'streamed' && limit !== undefined;
      const cap = empty ? 0 : streamed ? (limit as number) : Math.min(limit ?? n + 1, n + 1);
      const idleMs = end === undefined || idleParam !== undefined ? Math.max(0, idleParam ?? ctx.options.listWaitMs) : undefined;
      await serveUpdates(
        ctx.res,
        ledger,
        ctx.state.faults,
        createUpdateRenderer(ledger, compiled),
        { beginExclusive: begin, endInclusive: end, descending: request.descendingOrder, cap, idleMs },
        { mode: ctx.options.responseMode, maxListElements: n, limitGiven: limit !== undefined },
        ctx.signal,
      );
      return { handled: true };
    },
  },
];
