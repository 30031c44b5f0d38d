import type { DecodedDeduplicationPeriod } from '../decode/decode-js-commands.js';
import { ErrorDefs } from '../errors/error-defs.js';
import { SandboxError, type CantonErrorOptions } from '../errors/sandbox-error.js';
import type { Ledger } from '../ledger/ledger.js';

/** The participant's maximum deduplication duration (used when a submission gives none), in seconds. */
export const maxDeduplicationSeconds = 7 * 24 * 3600;

/**
 * The deduplication period against the participant's limits: a duration beyond
 * {@link maxDeduplicationSeconds} (context `longest_duration`) or an offset outside the ledger (before
 * the pruning offset or after the ledger end; context `earliest_offset`) is `INVALID_DEDUPLICATION_PERIOD`.
 */
export function checkDeduplicationPeriod(dedup: DecodedDeduplicationPeriod | undefined, ledger: Ledger, correlation: CantonErrorOptions): void {
  const ledgerEnd = ledger.ledgerEnd();
  if (dedup?.kind === 'DeduplicationDuration' && dedup.value.seconds > maxDeduplicationSeconds) {
    throw SandboxError.grpc(
      ErrorDefs.INVALID_DEDUPLICATION_PERIOD,
      `The submitted command had an invalid deduplication period: The given deduplication duration of ${dedup.value.seconds}s exceeds the maximum deduplication duration of ${maxDeduplicationSeconds}s`,
      { ...correlation, context: { longest_duration: `PT${maxDeduplicationSeconds / 3600}H` } },
    );
  }
  if (dedup?.kind === 'DeduplicationOffset' && (dedup.value > ledgerEnd || dedup.value < ledger.prunedOffset())) {
    throw SandboxError.grpc(
      ErrorDefs.INVALID_DEDUPLICATION_PERIOD,
      `The submitted command had an invalid deduplication period: The deduplication offset ${dedup.value} is outside the ledger (pruned up to ${ledger.prunedOffset()}, ledger end ${ledgerEnd})`,
      { ...correlation, context: { earliest_offset: String(ledger.prunedOffset()) } },
    );
  }
}
