import { InvalidArgumentError } from '../../errors/index.js';
import type { CallOptions } from '../call-options.js';
import { validateCallOptions } from './validate-call-options.js';

/** The options every read of updates shares, whatever its transport. */
export interface ReadOptions extends CallOptions {
  readonly validate?: unknown;
  readonly rawText?: unknown;
  readonly onBytes?: unknown;
}

function requireOptional(value: unknown, type: 'boolean' | 'function', field: string): void {
  if (value !== undefined && typeof value !== type) throw new InvalidArgumentError(field, `must be a ${type} (or left out)`);
}

/**
 * Checks the options of `updatesPage()` (and the shared part of every read's) before anything is sent:
 * {@link validateCallOptions}, then `validate` and `rawText` booleans and `onBytes` a function, when set.
 *
 * @returns the options (`{}` for `undefined`).
 * @throws InvalidArgumentError naming the option.
 */
export function validateReadOptions<T extends CallOptions>(options: unknown): T {
  const checked = validateCallOptions(options) as ReadOptions;
  requireOptional(checked.validate, 'boolean', 'validate');
  requireOptional(checked.rawText, 'boolean', 'rawText');
  requireOptional(checked.onBytes, 'function', 'onBytes');
  return checked as T;
}
