import { InvalidArgumentError } from '../../errors/index.js';

/**
 * `descendingOrder: true` requires `endInclusive` (the server answers `DESCENDING_ORDER_MISSING_END`).
 *
 * @throws InvalidArgumentError('descendingOrder', 'requires endInclusive').
 */
export function checkDescendingOrder(request: {
  readonly descendingOrder?: boolean | null | undefined;
  readonly endInclusive?: number | null | undefined;
}): void {
  if (request.descendingOrder === true && request.endInclusive == null) {
    throw new InvalidArgumentError('descendingOrder', 'requires endInclusive');
  }
}
