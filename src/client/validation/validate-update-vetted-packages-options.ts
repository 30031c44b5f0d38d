import { InvalidArgumentError } from '../../errors/index.js';
import type { UpdateVettedPackagesOptions } from '../unary/update-vetted-packages-options.js';
import { validateCallOptions } from './validate-call-options.js';

/**
 * Checks the options of `updateVettedPackages()` before anything is sent: the common checks of
 * {@link validateCallOptions}, then `endpoint`, when set, `'deprecated'` or `'update'`.
 *
 * @param options - the caller's argument, as given.
 * @returns the options (`{}` for `undefined`), typed.
 * @throws InvalidArgumentError naming `options`, `signal` or `endpoint`.
 */
export function validateUpdateVettedPackagesOptions(options: unknown): UpdateVettedPackagesOptions {
  const checked = validateCallOptions(options) as UpdateVettedPackagesOptions;
  const endpoint: unknown = checked.endpoint;
  if (endpoint !== undefined && endpoint !== 'deprecated' && endpoint !== 'update') {
    throw new InvalidArgumentError('endpoint', "must be 'deprecated' or 'update'");
  }
  return checked;
}
