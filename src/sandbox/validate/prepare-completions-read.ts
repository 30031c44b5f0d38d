import { canReadAs, matchUserId, requireReadAs } from '../auth/authorize.js';
import type { Claims } from '../auth/claims.js';
import type { DecodedCompletionStreamRequest } from '../decode/decode-completion-stream-request.js';
import type { DecodedGetCompletionsRequest } from '../decode/decode-get-completions-request.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { requestErrors } from '../errors/request-errors.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { Ledger } from '../ledger/ledger.js';
import type { CompletionFilter } from '../render/render-completion.js';
import { isLedgerString, isPartyIdString } from '../state/ids.js';

/** A validated completion stream request. */
export interface PreparedCompletionsRead {
  readonly filter: CompletionFilter;
  readonly beginExclusive: number;
  readonly claims: Claims;
}

function checkParties(parties: readonly string[]): void {
  for (const p of parties) if (!isPartyIdString(p)) throw requestErrors.invalidArgument(`Invalid party "${p}" in parties`);
}

function checkBegin(ledger: Ledger, begin: number): void {
  if (begin < 0) throw requestErrors.negativeOffset('begin_exclusive', begin);
  const end = ledger.ledgerEnd();
  if (begin > end) throw SandboxError.grpc(ErrorDefs.OFFSET_AFTER_LEDGER_END, `Begin offset (${begin}) is after ledger end (${end})`);
}

function checkPruning(ledger: Ledger, begin: number): void {
  const pruned = ledger.prunedOffset();
  if (begin < pruned) {
    throw SandboxError.grpc(
      ErrorDefs.PARTICIPANT_PRUNED_DATA_ACCESSED,
      `Command completions request from ${begin + 1} to ${ledger.ledgerEnd()} precedes pruned offset ${pruned}`,
      { context: { earliest_offset: String(pruned) } },
    );
  }
}

/**
 * Validates `/v2/commands/completions` (`CompletionStreamRequest`) in the participant's order
 * (CommandCompletionServiceAuthorization.scala:61-67, CompletionServiceRequestValidator.scala:20-51 at
 * e5f40da5e): authorization — `MatchUserId` (an empty `userId` is the token's; a reader of any party may
 * name another user) and `ReadAs` for every party —, then `userId` (`MISSING_FIELD user_id`, or not a user
 * id), the parties, `beginExclusive` ≥ 0, not after the ledger end (`OFFSET_AFTER_LEDGER_END`), a non-empty
 * party list (`MISSING_FIELD parties`), and not below the pruning offset
 * (`PARTICIPANT_PRUNED_DATA_ACCESSED`). The stream shows that user's completions of those parties.
 */
export async function prepareCompletionStream(ledger: Ledger, request: DecodedCompletionStreamRequest, claimsOf: () => Promise<Claims>): Promise<PreparedCompletionsRead> {
  const claims = await claimsOf();
  const userId = claims.readAsAnyParty && request.userId !== '' ? request.userId : matchUserId(claims, request.userId);
  requireReadAs(claims, request.parties, false);
  if (userId === '') throw requestErrors.missingField('user_id');
  if (!isLedgerString(userId)) throw requestErrors.invalidField('user_id', `"${userId}" is not a valid user id`);
  checkParties(request.parties);
  checkBegin(ledger, request.beginExclusive);
  if (request.parties.length === 0) throw requestErrors.missingField('parties');
  checkPruning(ledger, request.beginExclusive);
  return { filter: { userId, parties: new Set(request.parties) }, beginExclusive: request.beginExclusive, claims };
}

/**
 * Validates `/v2/commands/command-completions` (`GetCompletionsRequest`): `ReadAs` for every party, or
 * `ReadAsAnyParty` when the list is empty (then every party's completions), then the parties and
 * `beginExclusive` as for the completion stream. Completions of every user are shown.
 */
export async function prepareGetCompletions(ledger: Ledger, request: DecodedGetCompletionsRequest, claimsOf: () => Promise<Claims>): Promise<PreparedCompletionsRead> {
  const claims = await claimsOf();
  requireReadAs(claims, request.parties, request.parties.length === 0);
  checkParties(request.parties);
  checkBegin(ledger, request.beginExclusive);
  checkPruning(ledger, request.beginExclusive);
  const parties = request.parties.length === 0 ? 'any' : new Set(request.parties.filter((p) => canReadAs(claims, p)));
  return { filter: { userId: undefined, parties }, beginExclusive: request.beginExclusive, claims };
}
