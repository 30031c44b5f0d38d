import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';

/**
 * Checks a numeric option: `undefined` (left out) or a safe integer of at least `min` passes; anything else
 * throws `InvalidArgumentError(name, 'must be an integer >= min')`.
 */
export function checkInteger(name: string, value: number | undefined, min: number): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || value < min)) throw new InvalidArgumentError(name, `must be an integer >= ${min}`);
}
