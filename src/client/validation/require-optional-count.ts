import { InvalidArgumentError } from '../../errors/index.js';
import { requireNonNegativeInteger } from './require-non-negative-integer.js';

/**
 * Requires an option that is sent as a query parameter or used as a count (`limit`, `streamIdleTimeoutMs`,
 * `pingIntervalMs`, ...) to be left out or a non-negative safe integer. `null` is not "left out" here: it
 * would be sent as the text "null".
 *
 * @throws InvalidArgumentError(field, ...) otherwise.
 */
export function requireOptionalCount(value: unknown, field: string): void {
  if (value === null) throw new InvalidArgumentError(field, 'must be a non-negative integer (or left out)');
  requireNonNegativeInteger(value, field);
}
