import type { DecodedDeduplicationPeriod } from '../decode/decode-js-commands.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError, type CantonErrorOptions } from '../errors/sandbox-error.js';
import type { Ledger } from '../ledger/ledger.js';
import { maxDeduplicationSeconds } from './check-deduplication-period.js';

/**
 * Command deduplication: `DUPLICATE_COMMAND` (context `existing_submission_id`, `completion_offset`) when
 * the change id was accepted inside the deduplication period — after the given offset, or within the
 * given duration (the participant's maximum when none is given) before now.
 */
export function checkDuplicate(ledger: Ledger, changeId: string, dedup: DecodedDeduplicationPeriod | undefined, correlation: CantonErrorOptions): void {
  const previous = ledger.acceptedChange(changeId);
  if (!previous) return;
  const now = Date.now();
  const windowStartMs =
    dedup?.kind === 'DeduplicationDuration' ? now - dedup.value.seconds * 1000 - Math.floor(dedup.value.nanos / 1e6) : now - maxDeduplicationSeconds * 1000;
  const duplicate = dedup?.kind === 'DeduplicationOffset' ? previous.offset > dedup.value : previous.recordTimeMs >= windowStartMs;
  if (duplicate) {
    throw SandboxError.grpc(ErrorDefs.DUPLICATE_COMMAND, 'A command with the given command id has already been successfully processed', {
      ...correlation,
      context: { existing_submission_id: previous.submissionId, completion_offset: String(previous.offset) },
    });
  }
}
