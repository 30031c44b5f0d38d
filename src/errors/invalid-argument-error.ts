import { ErrorCodes } from './error-codes.js';
import { LedgerRxError } from './ledger-rx-error.js';

/**
 * A request that the client rejected before sending anything. `field` is the JSON path of the offending
 * field (`commands`, `updateFormat.includeTransactions.eventFormat`, ...) and `rule` states what was violated.
 * Never retryable.
 */
export class InvalidArgumentError extends LedgerRxError {
  override name = 'InvalidArgumentError';
  readonly field: string;
  readonly rule: string;

  constructor(field: string, rule: string, options: { cause?: unknown } = {}) {
    super(ErrorCodes.INVALID_CLIENT_ARGUMENT, `invalid argument '${field}': ${rule}`, { retryable: false, ...options });
    this.field = field;
    this.rule = rule;
  }
}
