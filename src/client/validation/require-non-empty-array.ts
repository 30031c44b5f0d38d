import { InvalidArgumentError } from '../../errors/index.js';

/**
 * Requires `value` to be an array with at least one element.
 *
 * @param value - the field's value; `null`/`undefined` fail as well.
 * @param field - the JSON path reported in the error.
 * @param what - what the elements are, for the message (`command`, `party`).
 * @throws InvalidArgumentError(field, 'must contain at least one <what>').
 */
export function requireNonEmptyArray(value: unknown, field: string, what: string): asserts value is readonly unknown[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new InvalidArgumentError(field, `must contain at least one ${what}`);
  }
}
