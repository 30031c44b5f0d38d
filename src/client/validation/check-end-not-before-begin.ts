import { InvalidArgumentError } from '../../errors/index.js';

/**
 * `endInclusive`, when set, must not be before `beginExclusive` (the server answers
 * `OFFSET_OUT_OF_RANGE`, after it has validated the update format). Equal offsets are an empty range,
 * which the server answers with `[]`.
 *
 * @throws InvalidArgumentError('endInclusive', …).
 */
export function checkEndNotBeforeBegin(request: {
  readonly beginExclusive: number;
  readonly endInclusive?: number | null | undefined;
}): void {
  const { beginExclusive, endInclusive } = request;
  if (endInclusive != null && endInclusive < beginExclusive) {
    throw new InvalidArgumentError('endInclusive', `must not be before beginExclusive (${beginExclusive})`);
  }
}
