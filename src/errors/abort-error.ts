import { ErrorCodes } from './error-codes.js';
import { LedgerRxError } from './ledger-rx-error.js';

/** The operation was aborted by the caller (an `AbortSignal` fired). Never retryable. */
export class AbortError extends LedgerRxError {
  override name = 'AbortError';

  constructor(message = 'the operation was aborted', options: { cause?: unknown } = {}) {
    super(ErrorCodes.ABORTED, message, { retryable: false, ...options });
  }
}
