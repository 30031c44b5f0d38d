import { ErrorCodes } from './error-codes.js';
import { LedgerRxError } from './ledger-rx-error.js';

/** A retry loop gave up after `attempts` tries; `cause` is the last error it saw. */
export class RetriesExhaustedError extends LedgerRxError {
  override name = 'RetriesExhaustedError';
  readonly attempts: number;

  constructor(attempts: number, lastError: unknown) {
    const detail = lastError instanceof Error ? lastError.message : String(lastError);
    super(ErrorCodes.RETRIES_EXHAUSTED, `gave up after ${attempts} attempts: ${detail}`, { retryable: false, cause: lastError });
    this.attempts = attempts;
  }
}
