import type { Claims } from '../auth/claims.js';
import { openStreamGuard } from '../auth/open-stream-guard.js';
import { decodeCompletionStreamRequest } from '../decode/decode-completion-stream-request.js';
import { decodeGetCompletionsRequest } from '../decode/decode-get-completions-request.js';
import { queryInt64 } from '../decode/query-int64.js';
import type { Handler, RequestContext, Route } from '../http/request-context.js';
import type { Ledger } from '../ledger/ledger.js';
import { readCompletions } from '../read/read-completions.js';
import { serveList } from '../serve/serve-list.js';
import { prepareCompletionStream, prepareGetCompletions, type PreparedCompletionsRead } from '../validate/prepare-completions-read.js';

type Prepare = (ledger: Ledger, body: unknown, claims: () => Promise<Claims>) => Promise<PreparedCompletionsRead>;

function completionList(path: string, prepare: Prepare): Handler {
  return async (ctx: RequestContext) => {
    const limit = queryInt64(ctx.query, 'limit');
    const idle = queryInt64(ctx.query, 'stream_idle_timeout_ms');
    const body = await ctx.body();
    const ledger = ctx.state.ledger;
    const read = await prepare(ledger, body, () => ctx.claims());
    const n = ctx.options.maxListElements;
    const plan = {
      beginExclusive: read.beginExclusive,
      endInclusive: undefined,
      descending: false,
      cap: Math.min(limit ?? n + 1, n + 1),
      idleMs: Math.max(0, idle ?? ctx.options.listWaitMs),
      checkpointProbeMs: ctx.options.idleCheckpointIntervalMs,
    };
    const guard = openStreamGuard(ctx.state, read.claims, ctx.signal, { transport: 'http', path });
    try {
      await serveList(ctx.res, n, guard, (sink) => readCompletions(ledger, read.filter, plan, sink, guard.signal, guard));
    } finally {
      guard.close();
    }
    return { handled: true };
  };
}

/**
 * The completion lists, `POST /v2/commands/completions` (`CompletionStreamRequest`: one user's completions
 * for some parties) and `POST /v2/commands/command-completions` (`GetCompletionsRequest`: every user's, for
 * some or — with `ReadAsAnyParty` — all parties). Completion streams never end on the participant, so the
 * list always runs its idle timer (`stream_idle_timeout_ms`, else `listWaitMs`; JsCommandService.scala:126-139
 * at e5f40da5e); otherwise the list rules of `POST /v2/updates` (`limit`, N + 1 and the 413, checkpoints
 * counted as elements). Each element is a `CompletionStreamResponse`.
 */
export const completionRoutes: readonly Route[] = [
  {
    method: 'POST',
    pattern: '/v2/commands/completions',
    handler: completionList('/v2/commands/completions', (ledger, body, claims) => prepareCompletionStream(ledger, decodeCompletionStreamRequest(body), claims)),
  },
  {
    method: 'POST',
    pattern: '/v2/commands/command-completions',
    handler: completionList('/v2/commands/command-completions', (ledger, body, claims) => prepareGetCompletions(ledger, decodeGetCompletionsRequest(body), claims)),
  },
];
