import { InvalidArgumentError } from '../../errors/index.js';
import type { UpdatesOptions } from '../../updates/updates-options.js';
import { requireOptionalCount } from './require-optional-count.js';
import { validateStreamOptions } from './validate-stream-options.js';

const transports = ['list', 'page', 'websocket'] as const;

/** The options that belong to some transports only, and those transports. */
const onlyWith: Readonly<Record<string, readonly string[]>> = {
  limit: ['list'],
  streamIdleTimeoutMs: ['list'],
  pageSize: ['page'],
  paused: ['websocket', 'page'],
  onOpen: ['websocket'],
  pingIntervalMs: ['websocket'],
  silenceTimeoutMs: ['websocket'],
};

/**
 * Checks the options of `updates()`/`iterateUpdates()` before anything is sent: the checks of every read
 * (`validateStreamOptions`: `signal`, `validate`, `rawText`, `onBytes`, `paused`, `onOpen`, `pingIntervalMs`,
 * `silenceTimeoutMs`), then `transport` one of `list`, `page`, `websocket`, `limit` and `streamIdleTimeoutMs`
 * non-negative integers (the server answers 400 text/plain to a non-integer query parameter), `pageSize` a
 * positive integer, when set; and an option of one transport given with another (`limit` with
 * `websocket`, ...) is refused rather than ignored. `null` is not a way to leave an option out.
 *
 * @param options - the caller's argument, as given.
 * @returns the options (`{}` for `undefined`), typed.
 * @throws InvalidArgumentError naming the option.
 */
export function validateUpdatesOptions(options: unknown): UpdatesOptions {
  const checked = validateStreamOptions<UpdatesOptions>(options);
  const transport: unknown = checked.transport === undefined ? 'list' : checked.transport;
  if (!(transports as readonly unknown[]).includes(transport)) {
    throw new InvalidArgumentError('transport', `must be one of ${transports.join(', ')} (or left out); 'auto' is the operators' (tailUpdates)`);
  }
  requireOptionalCount(checked.limit, 'limit');
  requireOptionalCount(checked.streamIdleTimeoutMs, 'streamIdleTimeoutMs');
  const size = checked.pageSize;
  if (size !== undefined && (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 1)) {
    throw new InvalidArgumentError('pageSize', 'must be a positive integer (or left out)');
  }
  for (const [name, allowed] of Object.entries(onlyWith)) {
    if ((checked as Record<string, unknown>)[name] !== undefined && !allowed.includes(transport as string)) {
      throw new InvalidArgumentError(name, `applies to transport ${allowed.map((t) => `'${t}'`).join(' and ')} only, not '${String(transport)}': leave it out`);
    }
  }
  return checked;
}
