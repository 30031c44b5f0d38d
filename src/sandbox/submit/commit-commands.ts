import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError } from '../errors/sandbox-error.js';
import type { CompletionDeduplication, CompletionRecord } from '../ledger/completion-record.js';
import type { ContractRecord } from '../ledger/update-record.js';
import type { SubmissionFault } from '../faults/submission-faults.js';
import type { ParticipantState } from '../participant/participant-state.js';
import type { AcceptedCommands } from './accept-commands.js';
import { buildTransactionNodes } from './build-transaction-nodes.js';
import { checkDuplicate } from './check-duplicate.js';
import { completionDeduplication } from './completion-deduplication.js';
import { rejectSubmission } from './reject-submission.js';

/** What an accepted submission produced. */
export interface SubmitResult {
  readonly updateId: string;
  readonly offset: number;
  /** Ids of the contracts the transaction created, in node order (transient ones included). */
  readonly contractIds: readonly string[];
  /** The transaction hash of an externally signed submission (`externallySigned`), else `undefined`. */
  readonly transactionHash: string | undefined;
}

/** The outcome of an accepted submission. */
export type CommitOutcome =
  | { readonly kind: 'committed'; readonly result: SubmitResult; readonly completion: CompletionRecord }
  | { readonly kind: 'rejected'; readonly error: SandboxError; readonly completion: CompletionRecord };

function faultError(fault: SubmissionFault, contractIds: readonly string[], correlation: AcceptedCommands['correlation']): SandboxError {
  switch (fault.kind) {
    case 'timeout':
      return SandboxError.grpc(
        ErrorDefs.NOT_SEQUENCED_TIMEOUT,
        'Transaction was not sequenced within the pre-defined max sequencing time and has therefore timed out',
        correlation,
      );
    case 'contention':
      return SandboxError.grpc(ErrorDefs.LOCAL_VERDICT_LOCKED_CONTRACTS, `Rejected transaction is referring to locked contracts [${contractIds.join(', ')}]`, {
        ...correlation,
        resources: contractIds.map((id): readonly [string, string] => ['CONTRACT_ID', id]),
      });
    case 'inactive-contracts':
      return SandboxError.grpc(ErrorDefs.LOCAL_VERDICT_INACTIVE_CONTRACTS, `Rejected transaction is referring to inactive contracts [${contractIds.join(', ')}]`, {
        ...correlation,
        resources: contractIds.map((id): readonly [string, string] => ['CONTRACT_ID', id]),
      });
  }
}

/**
 * The asynchronous part of a command submission: the participant decides the outcome of an accepted
 * submission and records it as a completion (docs/active-contracts-and-completions.md), in this order:
 *
 * 1. deduplication: the change id accepted inside the deduplication period ⇒ rejected with
 *    `DUPLICATE_COMMAND` (the completion reports the deduplication offset just before the earlier one);
 * 2. an injected {@link SubmissionFault} ⇒ rejected with its error;
 * 3. contention: a contract the commands use was archived or unassigned since they were accepted
 *    (another submission committed first) ⇒ rejected with `LOCAL_VERDICT_INACTIVE_CONTRACTS`;
 * 4. otherwise the transaction is appended at the next offset, with an accepted completion at the same
 *    offset.
 *
 * A rejection takes an offset of its own and consumes no contract. The change id leaves the in-flight set.
 * With `injectedFaults: false` (the sandbox's own workload) step 2 is skipped, so a fault a test injected
 * is left for the submission it was meant for.
 */
export function commitCommands(state: ParticipantState, accepted: AcceptedCommands, options: { readonly injectedFaults?: boolean } = {}): CommitOutcome {
  const ledger = state.ledger;
  const { plan, submission, correlation, request } = accepted;
  state.inFlight.delete(accepted.changeId);
  const deduplication = completionDeduplication(request.deduplicationPeriod);
  const reject = (error: SandboxError, reported: CompletionDeduplication = deduplication): CommitOutcome => ({
    kind: 'rejected',
    error,
    completion: rejectSubmission(ledger, error, submission, plan.synchronizer, reported),
  });

  const duplicate = checkDuplicate(ledger, accepted.changeId, request.deduplicationPeriod, correlation);
  if (duplicate) {
    const earlier = Number(duplicate.spec.kind === 'canton' ? duplicate.spec.context['completion_offset'] : 0);
    return reject(duplicate, { kind: 'offset', offset: Math.max(0, earlier - 1) });
  }
  const targets: ContractRecord[] = plan.actions.flatMap((a) => (a.kind === 'exercise' ? [a.target] : []));
  const ids = (contracts: readonly ContractRecord[]) => contracts.map((c) => ledger.ids.contractId(c.createdOffset, c.nodeId));
  const fault = options.injectedFaults === false ? undefined : state.submissionFaults.take();
  if (fault) return reject(faultError(fault, ids(targets), correlation));
  const gone = targets.filter((c) => c.archivedOffset !== 0 || c.unassignedIn !== undefined);
  if (gone.length > 0) return reject(faultError({ kind: 'inactive-contracts' }, ids(gone), correlation));

  const offset = ledger.allocateOffset();
  const { nodes, contractIds } = buildTransactionNodes(plan.actions, {
    offset,
    synchronizer: plan.synchronizer,
    actors: accepted.actors,
    isKnownParty: (p) => state.parties.has(p),
    ids: ledger.ids,
    partyLists: ledger.partyLists,
  });
  const recordTimeMs = ledger.nextRecordTime();
  ledger.append({ kind: 'transaction', offset, recordTimeMs, synchronizer: plan.synchronizer, submission, nodes });
  ledger.recordChange(accepted.changeId, { offset, recordTimeMs, submissionId: submission.submissionId });
  const completion: CompletionRecord = { offset, recordTimeMs, synchronizer: plan.synchronizer, submission, deduplication, rejection: undefined };
  ledger.addCompletion(completion);
  return { kind: 'committed', result: { updateId: ledger.ids.updateId(offset), offset, contractIds, transactionHash: accepted.submission.transactionHash }, completion };
}
