import { InvalidArgumentError } from '../../errors/index.js';
import type { CompletionsOptions } from '../reads/completions-options.js';
import { requireOptionalCount } from './require-optional-count.js';
import { validateStreamOptions } from './validate-stream-options.js';

/**
 * Checks the options of `completions()` before anything is sent: the checks of a WebSocket read's options (`validateStreamOptions`),
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
  requireOptionalCount(checked.limit, 'limit');
  requireOptionalCount(checked.streamIdleTimeoutMs, 'streamIdleTimeoutMs');
  return checked;
}
