import { UsageError } from './usage-error.js';

/**
 * Parses the value of an integer flag `name` (e.g. `--limit`) and checks it is at least `min`.
 * Throws {@link UsageError} naming the flag otherwise.
 */
export function parseIntegerFlag(name: string, value: string, min: number): number {
  const v = value.trim();
  const n = /^-?\d+$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`${name} must be an integer >= ${min}, got '${value}'`);
  return n;
}
