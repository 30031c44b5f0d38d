import { InvalidArgumentError } from '../../errors/index.js';

/**
 * The offset range of an updates request: `beginExclusive >= 0`; `endInclusive`, when set, `>= 1` and
 * `>= beginExclusive` (equal is an empty range, which the server answers with `[]`).
 *
 * @throws InvalidArgumentError naming `beginExclusive` or `endInclusive`.
 */
export function checkOffsetRange(request: {
  readonly beginExclusive: number;
  readonly endInclusive?: number | null | undefined;
}): void {
  const { beginExclusive, endInclusive } = request;
  if (beginExclusive < 0) {
    throw new InvalidArgumentError('beginExclusive', 'must be a non-negative offset');
  }
  if (endInclusive == null) return;
  if (endInclusive < 1) {
    throw new InvalidArgumentError('endInclusive', 'must be a positive offset when set');
  }
  if (endInclusive < beginExclusive) {
    throw new InvalidArgumentError('endInclusive', `must not be before beginExclusive (${beginExclusive})`);
  }
}
