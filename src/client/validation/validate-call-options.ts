import { InvalidArgumentError } from '../../errors/index.js';
import type { CallOptions } from '../call-options.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  // Object.prototype of this or another realm, or none (Object.create(null))
  return proto === null || Object.getPrototypeOf(proto) === null;
}

function isAbortSignal(value: unknown): value is AbortSignal {
  if (value instanceof AbortSignal) return true;
  const s = value as Partial<AbortSignal> | null;
  return (
    typeof value === 'object' && s !== null && typeof s.aborted === 'boolean' &&
    typeof s.addEventListener === 'function' && typeof s.removeEventListener === 'function'
  );
}

/**
 * Checks the options argument of a {@link LedgerClient} method before anything is sent: it must be
 * `undefined` (no options) or a plain object, and its `signal`, when set, an `AbortSignal` (one from
 * another realm or a polyfill passes when it has `aborted`, `addEventListener` and `removeEventListener`).
 * Other keys are ignored here; the methods with more options check theirs on top (see
 * `validateUpdatesOptions`).
 *
 * @param options - the caller's argument, as given.
 * @returns the options (`{}` for `undefined`), typed; the same object otherwise.
 * @throws InvalidArgumentError naming `options` (not a plain object) or `signal`.
 */
export function validateCallOptions(options: unknown): CallOptions {
  if (options === undefined) return {};
  if (!isPlainObject(options)) {
    throw new InvalidArgumentError('options', 'must be an object of call options (or left out)');
  }
  if (options['signal'] !== undefined && !isAbortSignal(options['signal'])) {
    throw new InvalidArgumentError('signal', 'must be an AbortSignal (or left out)');
  }
  return options as CallOptions;
}
