import type { DecodedDeduplicationPeriod } from '../decode/decode-js-commands.js';
import type { CompletionDeduplication } from '../ledger/completion-record.js';
import { maxDeduplicationSeconds } from './check-deduplication-period.js';

/**
 * The deduplication period a completion reports for a submission: the one it asked for, or the
 * participant's maximum duration when it asked for none.
 */
export function completionDeduplication(dedup: DecodedDeduplicationPeriod | undefined): CompletionDeduplication {
  if (dedup?.kind === 'DeduplicationOffset') return { kind: 'offset', offset: dedup.value };
  if (dedup?.kind === 'DeduplicationDuration') return { kind: 'duration', seconds: dedup.value.seconds, nanos: dedup.value.nanos };
  return { kind: 'duration', seconds: maxDeduplicationSeconds, nanos: 0 };
}
