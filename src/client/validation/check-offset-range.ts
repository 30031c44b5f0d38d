import { InvalidArgumentError } from '../../errors/index.js';

/**
 * The offset bounds of an updates request, checked by the server before the update format:
 * `beginExclusive >= 0` (`NEGATIVE_OFFSET`) and `endInclusive`, when set, `>= 1` (`NON_POSITIVE_OFFSET`).
 * That `endInclusive` is not before `beginExclusive` is a later check, see {@link checkEndNotBeforeBegin}.
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
  if (endInclusive != null && endInclusive < 1) {
    throw new InvalidArgumentError('endInclusive', 'must be a positive offset when set');
  }
}
