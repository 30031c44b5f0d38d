import type { SandboxError } from '../errors/sandbox-error.js';
import type { CompletionDeduplication, CompletionRecord } from '../ledger/completion-record.js';
import type { Ledger } from '../ledger/ledger.js';
import type { SubmissionRecord } from '../ledger/update-record.js';

/**
 * Records the rejection of an accepted submission: a completion with the error's status at an offset of
 * its own (the ledger end moves to it; no update carries it), on `synchronizer`. Returns the completion.
 */
export function rejectSubmission(
  ledger: Ledger,
  error: SandboxError,
  submission: SubmissionRecord,
  synchronizer: number,
  deduplication: CompletionDeduplication,
): CompletionRecord {
  const s = error.spec;
  const rejection =
    s.kind === 'canton'
      ? { code: s.def.code, category: s.def.category, cause: s.cause, context: s.context, resources: s.resources }
      : { code: 'LEDGER_API_INTERNAL_ERROR', category: 4, cause: error.message, context: {}, resources: [] };
  const completion: CompletionRecord = {
    offset: ledger.consumeOffset(),
    recordTimeMs: ledger.nextRecordTime(),
    synchronizer,
    submission,
    deduplication,
    rejection,
  };
  ledger.addCompletion(completion);
  return completion;
}
