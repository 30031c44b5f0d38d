import { InvalidArgumentError } from '../../errors/index.js';

/**
 * Requires `value` to be a string with at least one character. The server treats `""` as "not set" and
 * rejects it with `MISSING_FIELD`/`INVALID_FIELD`, so the client rejects it before sending.
 *
 * @param value - the field's value (any type; only a non-empty string passes).
 * @param field - the JSON path reported in the error.
 * @throws InvalidArgumentError(field, 'must be a non-empty string').
 */
export function requireNonEmptyString(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new InvalidArgumentError(field, 'must be a non-empty string');
  }
}
