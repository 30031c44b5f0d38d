import { InvalidArgumentError } from '../../errors/index.js';
import type { UpdatesCallOptions } from '../reads/updates-call-options.js';
import { requireNonNegativeInteger } from './require-non-negative-integer.js';
import { validateCallOptions } from './validate-call-options.js';

function requireOptionalBoolean(value: unknown, field: string): void {
  if (value !== undefined && typeof value !== 'boolean') throw new InvalidArgumentError(field, 'must be a boolean (or left out)');
}

function requireOptionalCount(value: unknown, field: string): void {
  // `null` is not "left out" here: it would be sent as the text "null"
  if (value === null) throw new InvalidArgumentError(field, 'must be a non-negative integer (or left out)');
  requireNonNegativeInteger(value, field);
}

/**
 * Checks the options of `updates()`/`iterateUpdates()` before anything is sent: the common checks of
 * {@link validateCallOptions}, then `limit` and `streamIdleTimeoutMs`, when set, non-negative integers
 * (the server answers 400 text/plain to a non-integer query parameter), and `validate` and `rawText`,
 * when set, booleans, and `onBytes`, when set, a function. `null` is not a way to leave an option out: it is rejected like any other
 * wrong type.
 *
 * @param options - the caller's argument, as given.
 * @returns the options (`{}` for `undefined`), typed.
 * @throws InvalidArgumentError naming `options`, `signal`, `limit`, `streamIdleTimeoutMs`, `validate`, `rawText` or `onBytes`.
 */
export function validateUpdatesCallOptions(options: unknown): UpdatesCallOptions {
  const checked = validateCallOptions(options) as UpdatesCallOptions;
  requireOptionalCount(checked.limit, 'limit');
  requireOptionalCount(checked.streamIdleTimeoutMs, 'streamIdleTimeoutMs');
  requireOptionalBoolean(checked.validate, 'validate');
  requireOptionalBoolean(checked.rawText, 'rawText');
  if (checked.onBytes !== undefined && typeof checked.onBytes !== 'function') throw new InvalidArgumentError('onBytes', 'must be a function (or left out)');
  return checked;
}
