import { readableParties } from '../auth/authorize.js';
import { requireUpdateReadClaims } from '../auth/require-update-read-claims.js';
import { decodeCompletionByHashRequest, decodeUpdateByHashRequest } from '../decode/decode-by-hash-requests.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { requestErrors } from '../errors/request-errors.js';
import { SandboxError } from '../errors/sandbox-error.js';
import { compileUpdateFormat } from '../format/compile-update-format.js';
import type { Route } from '../http/request-context.js';
import { createUpdateRenderer } from '../render/create-update-renderer.js';
import { renderCompletionValue } from '../render/render-completion.js';
import { validateUpdateFormat } from '../validate/validate-update-format.js';

/** The hash as the error resources print it: lower-case hex. */
function hex(hash: Uint8Array): string {
  return Buffer.from(hash).toString('hex');
}

/** The most rejected completions `completion-by-hash` returns (`max-rejected-completions-by-hash`, default 10). */
const maxRejectedCompletions = 10;

/**
 * The by-hash reads of 3.6 (docs/participant-versions.md): they find what an externally signed submission
 * produced, by the transaction hash its transaction and completion carry.
 *
 * - `POST /v2/updates/update-by-hash` (`GetUpdateByHashRequest` → `JsGetUpdateResponse`): body decoded
 *   (400 text/plain), the caller authorized for the update format as any update read, then the request
 *   validator's order — an empty hash `MISSING_FIELD transaction_hash`, no format `MISSING_FIELD
 *   update_format`, the format's own checks —, the filter references, and the lookup: no transaction with
 *   the hash, one at or below the pruning offset, or one the format filters out entirely is
 *   `UPDATE_NOT_FOUND` (404, resource `TRANSACTION_HASH` in hex).
 * - `POST /v2/commands/completion-by-hash` (`GetCompletionByHashRequest` → `GetCompletionByHashResponse`):
 *   the caller's readable parties (any for `CanReadAsAnyParty`; none is the redacted 403), an empty hash
 *   `INVALID_ARGUMENT` "Missing field: transaction_hash", then the completions of the hash above the
 *   pruning offset whose `actAs` meets those parties: the accepted one (at most one) and the last rejected
 *   ones, newest first (at most 10); neither is `COMPLETION_NOT_FOUND` (404).
 */
export const byHashRoutes: readonly Route[] = [
  {
    method: 'POST',
    pattern: '/v2/updates/update-by-hash',
    handler: async (ctx) => {
      const request = decodeUpdateByHashRequest(await ctx.body());
      const claims = await ctx.claims();
      if (request.updateFormat) requireUpdateReadClaims(claims, request.updateFormat);
      if (request.transactionHash.length === 0) throw requestErrors.missingField('transaction_hash');
      if (!request.updateFormat) throw requestErrors.missingField('update_format');
      validateUpdateFormat(request.updateFormat, ctx.state.api.packageIdFilters);
      const ledger = ctx.state.ledger;
      const format = compileUpdateFormat(request.updateFormat, ledger.catalog);
      const hash = Buffer.from(request.transactionHash).toString('base64');
      const tx = ledger.transactionByHash(hash);
      const rendered = tx && tx.offset > ledger.prunedOffset() ? createUpdateRenderer(ledger, format).render(tx) : undefined;
      if (rendered === undefined) {
        throw SandboxError.grpc(ErrorDefs.UPDATE_NOT_FOUND, 'Update not found, or not visible.', { resources: [['TRANSACTION_HASH', hex(request.transactionHash)]] });
      }
      ctx.res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(rendered) });
      ctx.res.end(rendered);
      return { handled: true };
    },
  },
  {
    method: 'POST',
    pattern: '/v2/commands/completion-by-hash',
    handler: async (ctx) => {
      const request = decodeCompletionByHashRequest(await ctx.body());
      const parties = readableParties(await ctx.claims());
      if (request.transactionHash.length === 0) throw requestErrors.invalidArgument('Missing field: transaction_hash');
      const ledger = ctx.state.ledger;
      const pruned = ledger.prunedOffset();
      let accepted: string | undefined;
      const rejected: string[] = [];
      const completions = ledger.completionsByHash(Buffer.from(request.transactionHash).toString('base64'));
      for (let i = completions.length - 1; i >= 0; i--) {
        const c = completions[i];
        if (!c || c.offset <= pruned) continue;
        const value = renderCompletionValue(ledger, c, parties);
        if (value === undefined) continue;
        if (c.rejection === undefined) accepted ??= value;
        else if (rejected.length < maxRejectedCompletions) rejected.push(value);
      }
      if (accepted === undefined && rejected.length === 0) {
        throw SandboxError.grpc(ErrorDefs.COMPLETION_NOT_FOUND, 'Completion not found, or not visible.', {
          resources: [['TRANSACTION_HASH', hex(request.transactionHash)]],
        });
      }
      const body = `{"acceptedCompletion":${accepted ?? 'null'},"lastRejectedCompletions":[${rejected.join(',')}]}`;
      ctx.res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      ctx.res.end(body);
      return { handled: true };
    },
  },
];
