import { InvalidArgumentError } from '../../errors/index.js';
import type { CompletionsOptions } from '../reads/completions-options.js';
import { requireNonNegativeInteger } from './require-non-negative-integer.js';
import { validateStreamOptions } from './validate-stream-options.js';

/**
 * Checks the options of `completions()` before anything is sent: the checks of `streamUpdates()`'s options,
 * then `endpoint` (`command-completions` or `completions`), `transport` (`websocket` or `list`), and `limit`
 * and `streamIdleTimeoutMs` non-negative integers, when set.
 *
 * @returns the options (`{}` for `undefined`).
 * @throws InvalidArgumentError naming the option.
 */
export function validateCompletionsOptions(options: unknown): CompletionsOptions {
  const checked = validateStreamOptions<CompletionsOptions>(options);
  if (checked.endpoint !== undefined && checked.endpoint !== 'command-completions' && checked.endpoint !== 'completions') {
    throw new InvalidArgumentError('endpoint', "must be 'command-completions' or 'completions' (or left out)");
  }
  if (checked.transport !== undefined && checked.transport !== 'websocket' && checked.transport !== 'list') {
    throw new InvalidArgumentError('transport', "must be 'websocket' or 'list' (or left out)");
  }
  for (const name of ['limit', 'streamIdleTimeoutMs'] as const) {
    if (checked[name] === null) throw new InvalidArgumentError(name, 'must be a non-negative integer (or left out)');
    requireNonNegativeInteger(checked[name], name);
  }
  return checked;
}
