import type { DecodedDeduplicationPeriod } from '../decode/decode-js-commands.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError, type CantonErrorOptions } from '../errors/sandbox-error.js';
import type { Ledger } from '../ledger/ledger.js';
import { maxDeduplicationSeconds } from './check-deduplication-period.js';

/**
 * Command deduplication, done by the participant after the submission was accepted: the rejection
 * `DUPLICATE_COMMAND` ("Command submission already exists.", context `completion_offset` and
 * `existingSubmissionId`; CommandDeduplicationError.scala:15-27 at e5f40da5e) when the change id was
 * accepted inside the deduplication period — after the given offset, or within the given duration (the
 * participant's maximum when none is given) before now — else `undefined`. The participant reports it as
 * a completion, not as an answer to the submission.
 */
export function checkDuplicate(ledger: Ledger, changeId: string, dedup: DecodedDeduplicationPeriod | undefined, correlation: CantonErrorOptions): SandboxError | undefined {
  const previous = ledger.acceptedChange(changeId);
  if (!previous) return undefined;
  const now = Date.now();
  const windowStartMs =
    dedup?.kind === 'DeduplicationDuration' ? now - dedup.value.seconds * 1000 - Math.floor(dedup.value.nanos / 1e6) : now - maxDeduplicationSeconds * 1000;
  const duplicate = dedup?.kind === 'DeduplicationOffset' ? previous.offset > dedup.value : previous.recordTimeMs >= windowStartMs;
  if (!duplicate) return undefined;
  return SandboxError.grpc(ErrorDefs.DUPLICATE_COMMAND, 'Command submission already exists.', {
    ...correlation,
    context: { completion_offset: String(previous.offset), existingSubmissionId: previous.submissionId },
  });
}
