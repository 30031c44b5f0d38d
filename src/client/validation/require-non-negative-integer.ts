import { InvalidArgumentError } from '../../errors/index.js';

/**
 * Requires an optional numeric option (`limit`, `streamIdleTimeoutMs`, `pageSize`) to be a non-negative
 * safe integer when it is set. `undefined` and `null` mean "not set" and pass.
 *
 * @param value - the option's value.
 * @param field - the name reported in the error.
 * @throws InvalidArgumentError(field, 'must be a non-negative integer').
 */
export function requireNonNegativeInteger(value: unknown, field: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(field, 'must be a non-negative integer');
  }
}
