import { randomUUID } from 'node:crypto';
import { matchUserId, requireActAs } from '../auth/authorize.js';
import type { Claims } from '../auth/claims.js';
import type { DecodedJsCommands } from '../decode/decode-js-commands.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { requestErrors } from '../errors/request-errors.js';
import { SandboxError, type CantonErrorOptions } from '../errors/sandbox-error.js';
import type { SubmissionRecord } from '../ledger/update-record.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { isPartyIdString } from '../state/ids.js';
import { changeIdKey } from './change-id-key.js';
import { checkDeduplicationPeriod } from './check-deduplication-period.js';
import { checkSubmissionFields } from './check-submission-fields.js';
import { noSynchronizerError } from './no-synchronizer-error.js';
import { planActions, type ActionPlan } from './plan-actions.js';
import { isPackageId, transcodeCommand, type TranscodedCommand } from './transcode-command.js';
import { sandboxTransactionHash } from './sandbox-transaction-hash.js';

/** Per-submission inputs besides the body. */
export interface SubmitOptions {
  /** The caller's claims; resolved after the JSON-layer checks, as the server authorizes at that point. */
  readonly claims: () => Promise<Claims> | Claims;
  readonly traceparent?: string | undefined;
  readonly tracestate?: string | undefined;
  /**
   * Record it as the execution of a transaction prepared and signed by an external party (the interactive
   * submission the sandbox has no endpoint for): it gets a transaction hash ({@link sandboxTransactionHash}).
   */
  readonly externallySigned?: boolean | undefined;
}

/** A submission the participant accepted: everything its commit needs. */
export interface AcceptedCommands {
  readonly request: DecodedJsCommands;
  readonly plan: ActionPlan;
  /** The distinct `actAs` parties. */
  readonly actors: readonly string[];
  readonly changeId: string;
  readonly correlation: CantonErrorOptions;
  readonly submission: SubmissionRecord;
}

/**
 * The synchronous part of `POST /v2/commands/async/submit` (what decides between an error answer and
 * `{}`): validates in the server's order (docs/server-behavior.md#submit-validation-order), interprets, and registers the change id
 * as in flight. The outcome is recorded later by `commitCommands`.
 *
 * 1. (decoding is the caller's)
 * 2. JSON layer: `actAs` non-empty and its first party valid, `packageIdSelectionPreference` ids,
 *    templates (`#name` resolves to the newest package of that name this participant vetted on the
 *    synchronizer, else `JSON_API_PACKAGE_SELECTION_FAILED`; unknown template
 *    `TEMPLATES_OR_INTERFACES_NOT_FOUND`), choices (`INVALID_ARGUMENT`), payloads (records, key fields,
 *    nesting ≤ 100);
 * 3. `MatchUserId`, `ActAs` for every `actAs`, `ReadAs` for every `readAs`;
 * 4. the gRPC validator; from here on errors carry `correlationId` = the submission id (generated when
 *    absent); values of DAR types it cannot accept (a Numeric string it cannot read, a malformed party or
 *    contract id, a date out of range: `INVALID_ARGUMENT`);
 * 5. submission: synchronizer and hosting (`NO_SYNCHRONIZER_FOR_SUBMISSION` when a submitter is not
 *    hosted here, a package is not vetted or `synchronizerId` is unknown — the sandbox's stand-in for
 *    Canton's routing errors), the deduplication period (`INVALID_DEDUPLICATION_PERIOD` beyond 7 days, or
 *    for an offset outside the ledger), the engine's preprocessing (a Numeric that does not fit its scale:
 *    `COMMAND_PREPROCESSING_FAILED`), interpretation; a change id already in flight is `SUBMISSION_ALREADY_IN_FLIGHT` (409).
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
 *
 * Deduplication is not done here: the participant checks it after accepting, and reports a duplicate
 * on the completion stream (see `commitCommands`).
 */
export async function acceptCommands(state: ParticipantState, request: DecodedJsCommands, options: SubmitOptions): Promise<AcceptedCommands> {
  const transcoded = transcodeJsonLayer(state, request);
  return acceptAuthorized(state, request, transcoded, await options.claims(), options);
}

/**
 * {@link acceptCommands} with claims known at once, synchronously: the same checks in the same order, for
 * the sandbox's own workload (its submissions must not interleave with the generated transactions by
 * timing, so that a seed gives one ledger).
 */
export function acceptCommandsNow(state: ParticipantState, request: DecodedJsCommands, claims: Claims, options: Omit<SubmitOptions, 'claims'> = {}): AcceptedCommands {
  return acceptAuthorized(state, request, transcodeJsonLayer(state, request), claims, options);
}

/** Step 2 of {@link acceptCommands}: the JSON layer (see there); the transcoded commands. */
function transcodeJsonLayer(state: ParticipantState, request: DecodedJsCommands): readonly TranscodedCommand[] {
  const first = request.actAs[0];
  if (first === undefined) throw requestErrors.missingField('act_as');
  if (!isPartyIdString(first)) throw requestErrors.invalidArgument(`Invalid party in actAs/act_as: "${first}" is not a valid party id`);
  for (const p of request.packageIdSelectionPreference ?? []) {
    if (!isPackageId(p)) throw requestErrors.invalidArgument(`packageIdSelectionPreferences: "${p}" is not a valid package id`);
  }
  const requestedSync = request.synchronizerId ?? '';
  const knownSync = state.synchronizers.find((s) => s.id === requestedSync);
  const resolutionSync = knownSync?.id ?? (state.synchronizers[0]?.id as string);
  return request.commands.map((c) => transcodeCommand(state, c, resolutionSync));
}

/** Steps 3–5 of {@link acceptCommands} (see there), once the claims are known. */
function acceptAuthorized(
  state: ParticipantState,
  request: DecodedJsCommands,
  transcoded: readonly TranscodedCommand[],
  claims: Claims,
  options: Omit<SubmitOptions, 'claims'>,
): AcceptedCommands {
  const ledger = state.ledger;
  const requestedSync = request.synchronizerId ?? '';
  const knownSync = state.synchronizers.find((s) => s.id === requestedSync);

  // Step 3 — authorization.
  const userId = matchUserId(claims, request.userId);
  const readAs = request.readAs ?? [];
  requireActAs(claims, request.actAs, readAs);

  // Step 4 — gRPC validation.
  const submissionId = request.submissionId !== undefined && request.submissionId !== '' ? request.submissionId : randomUUID();
  const correlation: CantonErrorOptions = { correlationId: submissionId };
  checkSubmissionFields(request, userId, submissionId, correlation);
  const invalidValue = transcoded.flatMap((t) => t.deferred).find((p) => p.stage === 'validation');
  if (invalidValue) throw requestErrors.invalidArgument(invalidValue.cause, correlation);

  // Step 5 — routing, the deduplication period, interpretation, the in-flight registration.
  if (requestedSync !== '' && (!knownSync || !knownSync.connected)) {
    throw noSynchronizerError(`the participant is not connected to synchronizer ${requestedSync}`, correlation);
  }
  const notHosted = request.actAs.filter((p) => state.parties.get(p)?.isLocal !== true);
  if (notHosted.length > 0) throw noSynchronizerError(`the submitting parties are not hosted on this participant: [${notHosted.join(', ')}]`, correlation);
  checkDeduplicationPeriod(request.deduplicationPeriod, ledger, correlation);
  const actors = [...new Set(request.actAs)];
  const readers = new Set([...actors, ...readAs]);
  const unfit = transcoded.flatMap((t) => t.deferred).find((p) => p.stage === 'preprocessing');
  if (unfit) throw SandboxError.grpc(ErrorDefs.COMMAND_PREPROCESSING_FAILED, unfit.cause, correlation);
  const plan = planActions(state, transcoded, readers, knownSync ? state.synchronizers.indexOf(knownSync) : undefined, correlation);
  const changeId = changeIdKey(userId, actors, request.commandId);
  const inFlight = state.inFlight.get(changeId);
  if (inFlight !== undefined) {
    throw SandboxError.grpc(ErrorDefs.SUBMISSION_ALREADY_IN_FLIGHT, 'The submission with the same change id is already being processed', {
      ...correlation,
      context: { existing_submission_id: inFlight },
    });
  }
  state.inFlight.set(changeId, submissionId);
  const submission: SubmissionRecord = {
    userId,
    actAs: actors,
    commandId: request.commandId,
    derivedCommandId: false,
    workflowId: request.workflowId ?? '',
    submissionId,
    traceparent: options.traceparent,
    tracestate: options.tracestate,
    ...(options.externallySigned === true
      ? { transactionHash: sandboxTransactionHash(state.participantId, userId, actors, request.commandId, submissionId) }
      : {}),
  };
  return { request, plan, actors, changeId, correlation, submission };
}
