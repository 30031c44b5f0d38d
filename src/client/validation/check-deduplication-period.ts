import type { z } from 'zod';
import { InvalidArgumentError } from '../../errors/index.js';
import type { DeduplicationPeriod } from '../../schemas/index.js';

/** The parsed form of a `deduplicationPeriod`. */
type ParsedDeduplicationPeriod = z.output<typeof DeduplicationPeriod>;

/**
 * A deduplication period must not be negative: a `DeduplicationDuration` below zero is rejected by the
 * server with `INVALID_FIELD deduplication_period`, a negative `DeduplicationOffset` with `NEGATIVE_OFFSET`.
 * Zero and `Empty` (the participant's maximum) pass, as does an absent period.
 *
 * @param period - the parsed `deduplicationPeriod` of a submission.
 * @throws InvalidArgumentError naming `deduplicationPeriod.<Alternative>.value`.
 */
export function checkDeduplicationPeriod(period: ParsedDeduplicationPeriod | null | undefined): void {
  if (period == null) return;
  if ('DeduplicationDuration' in period) {
    const { seconds, nanos } = period.DeduplicationDuration.value;
    if (seconds < 0 || (seconds === 0 && nanos < 0)) {
      throw new InvalidArgumentError('deduplicationPeriod.DeduplicationDuration.value', 'must not be a negative duration');
    }
  } else if ('DeduplicationOffset' in period) {
    if (period.DeduplicationOffset.value < 0) {
      throw new InvalidArgumentError('deduplicationPeriod.DeduplicationOffset.value', 'must not be a negative offset');
    }
  }
}
