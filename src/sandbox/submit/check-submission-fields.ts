import type { DecodedJsCommands } from '../decode/decode-js-commands.js';
import { requestErrors } from '../errors/request-errors.js';
import type { CantonErrorOptions } from '../errors/sandbox-error.js';
import { isLedgerString, isPartyIdString, isUid } from '../state/ids.js';

/**
 * Step 4 of a submission: the gRPC request validator's field checks, in its order — `workflow_id`,
 * `user_id`, `command_id`, `submission_id`, the `act_as`/`read_as` parties, `synchronizer_id`, a non-empty
 * `commands` list with contract ids, not both minimum ledger times, a non-negative deduplication period,
 * positive prefetch limits and `taps_max_passes`. Throws the first violation, carrying `correlation`
 * (the submission id).
 */
export function checkSubmissionFields(request: DecodedJsCommands, userId: string, submissionId: string, correlation: CantonErrorOptions): void {
  const workflowId = request.workflowId ?? '';
  if (workflowId !== '' && !isLedgerString(workflowId)) throw requestErrors.invalidArgument(`Invalid workflow_id "${workflowId}"`, correlation);
  if (userId === '') throw requestErrors.missingField('user_id', correlation);
  if (!isLedgerString(userId)) throw requestErrors.invalidField('user_id', `"${userId}" is not a valid user id`, correlation);
  if (request.commandId === '') throw requestErrors.missingField('command_id', correlation);
  if (!isLedgerString(request.commandId)) throw requestErrors.invalidField('command_id', `"${request.commandId}" is not a valid ledger string`, correlation);
  if (!isLedgerString(submissionId)) throw requestErrors.invalidField('submission_id', `"${submissionId}" is not a valid ledger string`, correlation);
  for (const p of [...request.actAs, ...(request.readAs ?? [])]) {
    if (!isPartyIdString(p)) throw requestErrors.invalidArgument(`Invalid party "${p}" in act_as/read_as`, correlation);
  }
  const sync = request.synchronizerId ?? '';
  if (sync !== '' && !isUid(sync)) throw requestErrors.invalidField('synchronizer_id', `"${sync}" is not a valid synchronizer id`, correlation);
  if (request.commands.length === 0) throw requestErrors.missingField('commands', correlation);
  for (const c of request.commands) {
    if (c.kind === 'ExerciseCommand' && c.value.contractId === '') throw requestErrors.missingField('contract_id', correlation);
  }
  if (request.minLedgerTimeAbs !== undefined && request.minLedgerTimeRel !== undefined) {
    throw requestErrors.invalidArgument('min_ledger_time_abs cannot be specified at the same time as min_ledger_time_rel', correlation);
  }
  const dedup = request.deduplicationPeriod;
  if (dedup?.kind === 'DeduplicationDuration' && (dedup.value.seconds < 0 || (dedup.value.seconds === 0 && dedup.value.nanos < 0))) {
    throw requestErrors.invalidField('deduplication_period', 'Duration must be positive', correlation);
  }
  if (dedup?.kind === 'DeduplicationOffset' && dedup.value < 0) throw requestErrors.negativeOffset('deduplication_period', dedup.value, correlation);
  for (const k of request.prefetchContractKeys ?? []) {
    if (k.limit !== undefined && k.limit <= 0) throw requestErrors.invalidArgument('prefetch_contract_keys.limit must be positive', correlation);
  }
  if (request.tapsMaxPasses !== undefined && request.tapsMaxPasses <= 0) throw requestErrors.invalidArgument('taps_max_passes must be positive', correlation);
}
