import { randomUUID } from 'node:crypto';
import { matchUserId, requireActAs } from '../auth/authorize.js';
import type { Claims } from '../auth/claims.js';
import type { DecodedJsCommands } from '../decode/decode-js-commands.js';
import { requestErrors } from '../errors/request-errors.js';
import type { CantonErrorOptions } from '../errors/sandbox-error.js';
import type { SubmissionRecord } from '../ledger/update-record.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { isPartyIdString } from '../state/ids.js';
import { buildTransactionNodes } from './build-transaction-nodes.js';
import { changeIdKey } from './change-id-key.js';
import { checkDeduplicationPeriod } from './check-deduplication-period.js';
import { checkDuplicate } from './check-duplicate.js';
import { checkSubmissionFields } from './check-submission-fields.js';
import { noSynchronizerError } from './no-synchronizer-error.js';
import { planActions } from './plan-actions.js';
import { isPackageId, transcodeCommand } from './transcode-command.js';

/** What an accepted submission produced. */
export interface SubmitResult {
  readonly updateId: string;
  readonly offset: number;
  /** Ids of the contracts the transaction created, in node order (transient ones included). */
  readonly contractIds: readonly string[];
}

/** Per-submission inputs besides the body. */
export interface SubmitOptions {
  /** The caller's claims; resolved after the JSON-layer checks, as the server authorizes at that point. */
  readonly claims: () => Promise<Claims> | Claims;
  readonly traceparent?: string | undefined;
  readonly tracestate?: string | undefined;
}

/**
 * `POST /v2/commands/async/submit` without HTTP: validates in the server's order (server-behavior §5.2)
 * and, when accepted, appends the transaction before returning.
 *
 * 1. (decoding is the caller's)
 * 2. JSON layer: `actAs` non-empty and its first party valid, `packageIdSelectionPreference` ids,
 *    templates (`#name` resolves to the newest package of that name this participant vetted on the
 *    synchronizer, else `JSON_API_PACKAGE_SELECTION_FAILED`; unknown template
 *    `TEMPLATES_OR_INTERFACES_NOT_FOUND`), choices (`INVALID_ARGUMENT`), payloads (records, key fields,
 *    nesting ≤ 100);
 * 3. `MatchUserId`, `ActAs` for every `actAs`, `ReadAs` for every `readAs`;
 * 4. the gRPC validator; from here on errors carry `correlationId` = the submission id (generated when
 *    absent);
 * 5. submission: synchronizer and hosting (`NO_SYNCHRONIZER_FOR_SUBMISSION` when a submitter is not
 *    hosted here, a package is not vetted or `synchronizerId` is unknown — the sandbox's stand-in for
 *    Canton's routing errors), the deduplication period (`INVALID_DEDUPLICATION_PERIOD` beyond 7 days, or
 *    for an offset outside the ledger), interpretation, then deduplication.
 *
 * Interpretation is structural (no Daml interpreter): a create's signatories are the `actAs` parties
 * and its observers the other known parties that appear as values anywhere in its argument
 * (`observersOf`); an exercise needs an active contract of the named template visible to
 * `actAs`/`readAs` (else `CONTRACT_NOT_FOUND`, also for a contract consumed earlier in the same
 * submission or currently unassigned), archives it unless the
 * choice is non-consuming, and has `actingParties` = `actAs`; a consuming choice whose argument has a
 * `newOwner` party creates the successor contract with `owner` replaced (a child node); ExerciseByKey
 * takes the oldest visible active contract with the key (`CONTRACT_KEY_NOT_FOUND` otherwise). Every
 * exercise result is unit (`{}`).
 *
 * Deduplication: async submit reports outcomes only through completions, which the sandbox does not
 * serve, so a second submission of a change id within the deduplication period is rejected
 * synchronously with `DUPLICATE_COMMAND` (409; the first one was already committed when it was
 * accepted). It is checked after interpretation, as on Canton.
 */
export async function submitCommands(state: ParticipantState, request: DecodedJsCommands, options: SubmitOptions): Promise<SubmitResult> {
  const ledger = state.ledger;
  // Step 2 — JSON layer.
  const first = request.actAs[0];
  if (first === undefined) throw requestErrors.missingField('act_as');
  if (!isPartyIdString(first)) throw requestErrors.invalidArgument(`Invalid party in actAs/act_as: "${first}" is not a valid party id`);
  for (const p of request.packageIdSelectionPreference ?? []) {
    if (!isPackageId(p)) throw requestErrors.invalidArgument(`packageIdSelectionPreferences: "${p}" is not a valid package id`);
  }
  const requestedSync = request.synchronizerId ?? '';
  const knownSync = state.synchronizers.find((s) => s.id === requestedSync);
  const resolutionSync = knownSync?.id ?? (state.synchronizers[0]?.id as string);
  const transcoded = request.commands.map((c) => transcodeCommand(state, c, resolutionSync));

  // Step 3 — authorization.
  const claims = await options.claims();
  const userId = matchUserId(claims, request.userId);
  const readAs = request.readAs ?? [];
  requireActAs(claims, request.actAs, readAs);

  // Step 4 — gRPC validation.
  const submissionId = request.submissionId !== undefined && request.submissionId !== '' ? request.submissionId : randomUUID();
  const correlation: CantonErrorOptions = { correlationId: submissionId };
  checkSubmissionFields(request, userId, submissionId, correlation);

  // Step 5 — routing, the deduplication period, interpretation, deduplication.
  if (requestedSync !== '' && (!knownSync || !knownSync.connected)) {
    throw noSynchronizerError(`the participant is not connected to synchronizer ${requestedSync}`, correlation);
  }
  const notHosted = request.actAs.filter((p) => state.parties.get(p)?.isLocal !== true);
  if (notHosted.length > 0) throw noSynchronizerError(`the submitting parties are not hosted on this participant: [${notHosted.join(', ')}]`, correlation);
  checkDeduplicationPeriod(request.deduplicationPeriod, ledger, correlation);
  const actors = [...new Set(request.actAs)];
  const readers = new Set([...actors, ...readAs]);
  const plan = planActions(state, transcoded, readers, knownSync ? state.synchronizers.indexOf(knownSync) : undefined, correlation);
  const changeId = changeIdKey(userId, actors, request.commandId);
  checkDuplicate(ledger, changeId, request.deduplicationPeriod, correlation);

  // Accepted: build the transaction at its offset and append it.
  const offset = ledger.allocateOffset();
  const { nodes, contractIds } = buildTransactionNodes(plan.actions, {
    offset,
    synchronizer: plan.synchronizer,
    actors,
    isKnownParty: (p) => state.parties.has(p),
    ids: ledger.ids,
  });
  const submission: SubmissionRecord = {
    userId,
    actAs: actors,
    commandId: request.commandId,
    derivedCommandId: false,
    workflowId: request.workflowId ?? '',
    submissionId,
    traceparent: options.traceparent,
    tracestate: options.tracestate,
  };
  const recordTimeMs = ledger.nextRecordTime();
  ledger.append({ kind: 'transaction', offset, recordTimeMs, synchronizer: plan.synchronizer, submission, nodes });
  ledger.recordChange(changeId, { offset, recordTimeMs, submissionId });
  return { updateId: ledger.ids.updateId(offset), offset, contractIds };
}
