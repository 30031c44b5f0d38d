import { InvalidArgumentError } from '../../errors/index.js';
import type { CallOptions } from '../call-options.js';
import { requireOptionalCount } from './require-optional-count.js';
import { validateReadOptions, type ReadOptions } from './validate-read-options.js';

/** The options of a WebSocket read on top of {@link ReadOptions}. */
interface StreamOptions extends ReadOptions {
  readonly paused?: unknown;
  readonly onOpen?: unknown;
  readonly pingIntervalMs?: unknown;
  readonly silenceTimeoutMs?: unknown;
}

/**
 * Checks the options of a read that may go over a WebSocket (`updates()`, `activeContracts()`,
 * `completions()`): {@link validateReadOptions}, then `paused` an Observable (has
 * `subscribe`), `onOpen` a function, `pingIntervalMs` and `silenceTimeoutMs` non-negative integers, when set.
 *
 * @throws InvalidArgumentError naming the option.
 */
export function validateStreamOptions<T extends CallOptions>(options: unknown): T {
  const checked = validateReadOptions<StreamOptions>(options);
  const paused = checked.paused as { subscribe?: unknown } | undefined | null;
  if (paused !== undefined && (typeof paused !== 'object' || paused === null || typeof paused.subscribe !== 'function')) {
    throw new InvalidArgumentError('paused', 'must be an Observable of booleans (or left out)');
  }
  if (checked.onOpen !== undefined && typeof checked.onOpen !== 'function') throw new InvalidArgumentError('onOpen', 'must be a function (or left out)');
  requireOptionalCount(checked.pingIntervalMs, 'pingIntervalMs');
  requireOptionalCount(checked.silenceTimeoutMs, 'silenceTimeoutMs');
  return checked as unknown as T;
}
