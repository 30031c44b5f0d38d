import { errorCategory } from './error-category.js';
import { ErrorCodes } from './error-codes.js';
import { LedgerRxError } from './ledger-rx-error.js';

/** The status of a failed completion (a google.rpc.Status), as the participant reports it. */
export interface CommandStatus {
  /** The gRPC status code (non-zero). */
  readonly code: number;
  readonly message: string;
  /** The packed details (`ErrorInfo`, `RetryInfo`, `RequestInfo`, `ResourceInfo`, ...), as sent. */
  readonly details: readonly unknown[];
}

/** What a {@link CommandFailedError} is made from. */
export interface CommandFailedInit {
  readonly commandId: string;
  readonly submissionId: string | undefined;
  readonly status: CommandStatus;
  /** The offset of the completion that reported the failure. */
  readonly completionOffset: number;
  /** The completion itself. */
  readonly completion: unknown;
}

/** `CONTRACT_NOT_FOUND(11,0a1b2c3d): Contract could not be found ...` → the Canton code and category id. */
const cantonPrefix = /^([A-Z][A-Z0-9_]*)\((\d+),[^)]*\):/;

/**
 * A submitted command was accepted by the participant and then failed: its completion carries a non-zero
 * status (contention on a consumed contract, a duplicate change id within the deduplication period, an
 * authorization or interpretation failure, ...). `code` is `COMMAND_FAILED`; `cantonCode` is the Canton
 * error code the status message starts with (`CONTRACT_NOT_FOUND`, `DUPLICATE_COMMAND`, ...), when it does;
 * `status` keeps the gRPC code, the message and the details as sent. `retryable` follows the Canton error
 * category in the message (contention and transient failures are; submit again with the same command id).
 */
export class CommandFailedError extends LedgerRxError {
  override name = 'CommandFailedError';
  readonly commandId: string;
  readonly submissionId: string | undefined;
  readonly status: CommandStatus;
  readonly cantonCode: string | undefined;
  readonly completionOffset: number;
  readonly completion: unknown;

  constructor(init: CommandFailedInit) {
    const match = cantonPrefix.exec(init.status.message);
    const category = match ? errorCategory(Number(match[2])) : undefined;
    super(ErrorCodes.COMMAND_FAILED, `command ${init.commandId} failed (status ${init.status.code}): ${init.status.message}`, {
      retryable: category?.retryInfo != null,
    });
    this.commandId = init.commandId;
    this.submissionId = init.submissionId;
    this.status = init.status;
    this.cantonCode = match?.[1];
    this.completionOffset = init.completionOffset;
    this.completion = init.completion;
  }
}
