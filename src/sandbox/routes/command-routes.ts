import type { Route } from '../http/request-context.js';
import { decodeJsCommands } from '../decode/decode-js-commands.js';
import { decodeReassignmentRequest } from '../decode/decode-reassignment-request.js';
import { submitAsync } from '../submit/submit-commands.js';
import { submitReassignment } from '../submit/submit-reassignment.js';
import { traceHeaders } from '../http/trace-headers.js';

/**
 * The command routes:
 *
 * - `POST /v2/commands/async/submit` (`JsCommands` → `{}`): validated and interpreted as described in
 *   {@link submitAsync}: the answer is `{}` once accepted; the outcome (the transaction and its completion,
 *   or a rejection completion) is recorded before the answer, or `submissionDelayMs` after it.
 * - `POST /v2/commands/submit-and-wait-for-reassignment` (→ `{reassignment}`): see
 *   {@link submitReassignment}.
 *
 * Both take the transaction's `traceContext` from the request's `traceparent`/`tracestate` headers.
 */
export const commandRoutes: readonly Route[] = [
  {
    method: 'POST',
    pattern: '/v2/commands/async/submit',
    handler: async (ctx) => {
      const request = decodeJsCommands(await ctx.body());
      await submitAsync(ctx.state, request, { claims: () => ctx.claims(), ...traceHeaders(ctx.headers) });
      return { json: {} };
    },
  },
  {
    method: 'POST',
    pattern: '/v2/commands/submit-and-wait-for-reassignment',
    handler: async (ctx) => {
      const request = decodeReassignmentRequest(await ctx.body());
      const body = await submitReassignment(ctx.state, request, { claims: () => ctx.claims(), ...traceHeaders(ctx.headers) });
      ctx.res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      ctx.res.end(body);
      return { handled: true };
    },
  },
];
