import { randomUUID } from 'node:crypto';
import { matchUserId, requireActAs } from '../auth/authorize.js';
import type { Claims } from '../auth/claims.js';
import { SandboxError, type CantonErrorOptions } from '../errors/sandbox-error.js';
import type { ParticipantState } from '../participant/participant-state.js';
import { isLedgerString, isPartyIdString, isUid } from '../state/ids.js';
import { checkFilterReferences } from '../format/check-filter-references.js';
import { compileEventFormat } from '../format/compile-event-format.js';
import { renderReassignmentJson } from '../render/render-reassignment-json.js';
import type { DecodedReassignmentRequest } from '../decode/decode-reassignment-request.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { requestErrors } from '../errors/request-errors.js';
import { requireEventFormatReadClaims } from '../auth/require-event-format-read-claims.js';
import type { ContractRecord, ReassignmentEventRecord, ReassignmentRecord } from '../ledger/update-record.js';
import { validateEventFormat } from '../validate/validate-update-format.js';

/** Inputs of a reassignment besides the body. */
export interface ReassignOptions {
  readonly claims: () => Promise<Claims> | Claims;
  readonly traceparent?: string | undefined;
  readonly tracestate?: string | undefined;
}

/**
 * `POST /v2/commands/submit-and-wait-for-reassignment` without HTTP (docs/server-behavior.md#reassignment). Returns the
 * `JsSubmitAndWaitForReassignmentResponse` JSON after appending the `Reassignment` update.
 *
 * Order: (decoding is the caller's) → `MatchUserId`, `ActAs(submitter)` and the read claims of
 * `eventFormat` → submission id (generated when empty), then the validator: `eventFormat`, `submitter`
 * (`INVALID_FIELD`), `user_id`, `command_id` (`INVALID_FIELD`, also when empty), `workflow_id`, each
 * command (`Empty` ⇒ `MISSING_FIELD command`, `source`/`target` missing or malformed, `reassignment_id`,
 * `contract_id`) → the reassignment itself. From the validator on, errors carry `correlationId` = the
 * submission id.
 *
 * Choices where the reference is silent: an empty `commands` list is `MISSING_FIELD commands`; all
 * commands of one request must be of one kind with the same source and target (`INVALID_ARGUMENT`);
 * a `source`/`target` that is a valid id but not one of the participant's synchronizers is
 * `INVALID_FIELD` "... is not connected to this participant" (so a single-synchronizer sandbox rejects
 * every reassignment this way; start it with `synchronizers: 2` or more); an unassign of a contract that
 * is unknown, archived, not on `source` or not visible to the submitter (a stakeholder) is
 * `CONTRACT_NOT_FOUND`; an assign whose id does not name a pending unassignment from `source` to
 * `target` is `REASSIGNMENT_NOT_FOUND` (404); a submitter not hosted here is
 * `NO_SYNCHRONIZER_FOR_SUBMISSION`. Reassignments are not deduplicated.
 *
 * An unassignment takes the contract out of the active set (its synchronizer keeps it as unassigned,
 * with the reassignment counter incremented); the assignment makes it active on the target with the
 * same counter. The response events follow `eventFormat` with ACS-delta semantics and are `[]` without it.
 * The reassignment gets an accepted completion at its offset (without a deduplication period).
 */
export async function submitReassignment(state: ParticipantState, request: DecodedReassignmentRequest, options: ReassignOptions): Promise<string> {
  const ledger = state.ledger;
  const rc = request.reassignmentCommands ?? { workflowId: '', userId: '', commandId: '', submitter: '', submissionId: '', commands: [] };
  const claims = await options.claims();
  const userId = matchUserId(claims, rc.userId);
  requireActAs(claims, [rc.submitter], []);
  requireEventFormatReadClaims(claims, request.eventFormat);

  const submissionId = rc.submissionId === '' ? randomUUID() : rc.submissionId;
  const correlation: CantonErrorOptions = { correlationId: submissionId };
  const withCorrelation = (e: unknown): never => {
    if (e instanceof SandboxError && e.spec.kind === 'canton' && e.spec.correlationId === undefined) {
      throw SandboxError.grpc(e.spec.def, e.spec.cause, { context: e.spec.context, resources: e.spec.resources, correlationId: submissionId });
    }
    throw e;
  };
  if (request.eventFormat) {
    try {
      validateEventFormat(request.eventFormat, state.api.packageIdFilters);
    } catch (e) {
      withCorrelation(e);
    }
  }
  if (!isPartyIdString(rc.submitter)) throw requestErrors.invalidField('submitter', `"${rc.submitter}" is not a valid party id`, correlation);
  if (userId === '') throw requestErrors.missingField('user_id', correlation);
  if (!isLedgerString(userId)) throw requestErrors.invalidField('user_id', `"${userId}" is not a valid user id`, correlation);
  if (!isLedgerString(rc.commandId)) throw requestErrors.invalidField('command_id', `"${rc.commandId}" is not a valid ledger string`, correlation);
  if (rc.workflowId !== '' && !isLedgerString(rc.workflowId)) throw requestErrors.invalidField('workflow_id', `"${rc.workflowId}" is not a valid ledger string`, correlation);
  for (const { command } of rc.commands) {
    if (command.kind === 'Empty') throw requestErrors.missingField('command', correlation);
    for (const field of ['source', 'target'] as const) {
      const v = command.value[field];
      if (v === '') throw requestErrors.missingField(field, correlation);
      if (!isUid(v)) throw requestErrors.invalidField(field, `"${v}" is not a valid synchronizer id`, correlation);
    }
    if (command.kind === 'AssignCommand' && !/^[0-9a-f]+$/.test(command.value.reassignmentId)) {
      throw requestErrors.invalidField('reassignment_id', 'Invalid reassignment ID', correlation);
    }
    if (command.kind === 'UnassignCommand') {
      if (command.value.contractId === '') throw requestErrors.missingField('contract_id', correlation);
      if (!/^[0-9a-f]{2,}$/.test(command.value.contractId)) throw requestErrors.invalidField('contract_id', `cannot parse ContractId "${command.value.contractId}"`, correlation);
    }
  }
  if (rc.commands.length === 0) throw requestErrors.missingField('commands', correlation);

  // The reassignment.
  let compiled;
  if (request.eventFormat) {
    try {
      checkFilterReferences([request.eventFormat], ledger.catalog);
    } catch (e) {
      withCorrelation(e);
    }
    compiled = compileEventFormat(request.eventFormat, ledger.catalog);
  }
  const firstCommand = rc.commands[0]?.command as Exclude<DecodedReassignmentRequest['reassignmentCommands'], undefined>['commands'][number]['command'] & {
    kind: 'AssignCommand' | 'UnassignCommand';
  };
  const kind = firstCommand.kind;
  const sourceId = firstCommand.value.source;
  const targetId = firstCommand.value.target;
  for (const { command } of rc.commands) {
    if (command.kind !== kind || command.value.source !== sourceId || command.value.target !== targetId) {
      throw requestErrors.invalidArgument('all reassignment commands of one request must be of the same kind, with the same source and target', correlation);
    }
  }
  const source = state.synchronizers.findIndex((s) => s.id === sourceId && s.connected);
  const target = state.synchronizers.findIndex((s) => s.id === targetId && s.connected);
  if (source < 0) throw requestErrors.invalidField('source', `synchronizer ${sourceId} is not connected to this participant`, correlation);
  if (target < 0) throw requestErrors.invalidField('target', `synchronizer ${targetId} is not connected to this participant`, correlation);
  if (source === target) throw requestErrors.invalidArgument('the source and target synchronizers must differ', correlation);
  if (state.parties.get(rc.submitter)?.isLocal !== true) {
    throw SandboxError.grpc(
      ErrorDefs.NO_SYNCHRONIZER_FOR_SUBMISSION,
      `No valid synchronizer for submission found: the submitter ${rc.submitter} is not hosted on this participant`,
      correlation,
    );
  }

  const offset = ledger.allocateOffset();
  const events: ReassignmentEventRecord[] = [];
  const seen = new Set<ContractRecord>();
  for (const [nodeId, { command }] of rc.commands.entries()) {
    if (command.kind === 'UnassignCommand') {
      const contract = ledger.contract(command.value.contractId);
      if (
        !contract ||
        seen.has(contract) ||
        contract.archivedOffset !== 0 ||
        contract.unassignedIn !== undefined ||
        contract.synchronizer !== source ||
        !contract.stakeholders.includes(rc.submitter)
      ) {
        throw requestErrors.contractNotFound(command.value.contractId, correlation);
      }
      seen.add(contract);
      events.push({
        type: 'unassign',
        nodeId,
        contract,
        reassignmentId: ledger.ids.reassignmentId(offset, nodeId),
        source,
        target,
        submitter: rc.submitter,
        reassignmentCounter: contract.reassignmentCounter + 1,
      });
    } else if (command.kind === 'AssignCommand') {
      const id = command.value.reassignmentId;
      const ref = ledger.ids.parseReassignmentId(id);
      const u = ref ? ledger.updateAt(ref.offset) : undefined;
      const unassigned = u?.kind === 'reassignment' ? u.events.find((e) => e.nodeId === ref?.nodeId && e.type === 'unassign') : undefined;
      const contract = unassigned?.contract;
      if (!unassigned || !contract || seen.has(contract) || contract.unassignedIn !== id || unassigned.source !== source || unassigned.target !== target) {
        throw SandboxError.grpc(ErrorDefs.REASSIGNMENT_NOT_FOUND, `Reassignment ${id} from ${sourceId} to ${targetId} is not pending`, {
          ...correlation,
          resources: [['REASSIGNMENT_ID', id]],
        });
      }
      if (!contract.stakeholders.includes(rc.submitter)) throw requestErrors.contractNotFound(ledger.ids.contractId(contract.createdOffset, contract.nodeId), correlation);
      seen.add(contract);
      events.push({ type: 'assign', nodeId, contract, reassignmentId: id, source, target, submitter: rc.submitter, reassignmentCounter: unassigned.reassignmentCounter });
    }
  }
  const record: ReassignmentRecord = {
    kind: 'reassignment',
    offset,
    recordTimeMs: ledger.nextRecordTime(),
    synchronizer: kind === 'UnassignCommand' ? source : target,
    submission: {
      userId,
      actAs: [rc.submitter],
      commandId: rc.commandId,
      derivedCommandId: false,
      workflowId: rc.workflowId,
      submissionId,
      traceparent: options.traceparent,
      tracestate: options.tracestate,
    },
    events,
  };
  ledger.append(record);
  ledger.addCompletion({
    offset: record.offset,
    recordTimeMs: record.recordTimeMs,
    synchronizer: record.synchronizer,
    submission: record.submission,
    deduplication: { kind: 'none' },
    rejection: undefined,
  });
  return `{"reassignment":${renderReassignmentJson(ledger, record, compiled, { keepEmpty: true, submitterView: true })}}`;
}
