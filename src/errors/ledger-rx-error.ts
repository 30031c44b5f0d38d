/**
 * The base of every error ledger-rx raises. `code` is stable and meant for `switch`es; `retryable`
 * says whether repeating the same operation may succeed; `cause` is the underlying error, if any.
 */
export class LedgerRxError extends Error {
  override name = 'LedgerRxError';
  readonly code: string;
  readonly retryable: boolean;

  constructor(code: string, message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable ?? false;
  }
}

/** True when `value` is any error raised by ledger-rx. */
export function isLedgerRxError(value: unknown): value is LedgerRxError {
  return value instanceof LedgerRxError;
}
