import { InvalidArgumentError } from '../../errors/index.js';
import type { ActiveContractsOptions } from '../reads/active-contracts-options.js';
import { validateStreamOptions } from './validate-stream-options.js';

const transports = ['websocket', 'page', 'list'];

/**
 * Checks the options of `activeContracts()` before anything is sent: the checks of a WebSocket read's
 * options (signal, `validate`, `rawText`, `onBytes`, `paused`), then `transport` one of `websocket`, `page`,
 * `list`, `pageSize` a positive integer, `onActiveAtOffset` and `onStatus` functions, when set. The retry
 * policy is checked by `resolveRetryConfig`.
 *
 * @returns the options (`{}` for `undefined`).
 * @throws InvalidArgumentError naming the option.
 */
export function validateActiveContractsOptions(options: unknown): ActiveContractsOptions {
  const checked = validateStreamOptions<ActiveContractsOptions>(options);
  if (checked.transport !== undefined && !transports.includes(checked.transport)) {
    throw new InvalidArgumentError('transport', `must be one of ${transports.join(', ')} (or left out)`);
  }
  const size = checked.pageSize;
  if (size !== undefined && (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 1)) {
    throw new InvalidArgumentError('pageSize', 'must be a positive integer (or left out)');
  }
  for (const name of ['onActiveAtOffset', 'onStatus'] as const) {
    if (checked[name] !== undefined && typeof checked[name] !== 'function') throw new InvalidArgumentError(name, 'must be a function (or left out)');
  }
  return checked;
}
