import { ErrorCodes } from './error-codes.js';
import { LedgerRxError } from './ledger-rx-error.js';

/** What a {@link CommandOutcomeUnknownError} is made from. */
export interface CommandOutcomeUnknownInit {
  readonly commandId: string;
  readonly submissionId: string;
  readonly actAs: readonly string[];
  readonly userId: string | undefined;
  /** How long the completion was awaited (ms). */
  readonly timeoutMs: number;
  /** The completion stream was read after this offset: its completion, if any, comes after it. */
  readonly beginExclusive: number;
  /** Why the outcome is unknown beyond the timeout, e.g. the submission's transport error. */
  readonly cause?: unknown;
}

/**
 * No completion for a submitted command arrived in time, so its outcome is UNKNOWN: it may still commit (or
 * have committed, when the answer to the submission was lost). `code` is `COMMAND_OUTCOME_UNKNOWN`; not
 * retryable as such. To learn the outcome, read the completions after `beginExclusive` (e.g.
 * `client.completions({ parties: actAs, beginExclusive })`) for this change id and submission id; or
 * submit again with the SAME command id and `actAs` inside the deduplication period (the participant's
 * maximum unless the command set one): a command that did commit is then rejected as `DUPLICATE_COMMAND`
 * rather than executed twice, and one that did not runs now.
 */
export class CommandOutcomeUnknownError extends LedgerRxError {
  override name = 'CommandOutcomeUnknownError';
  readonly commandId: string;
  readonly submissionId: string;
  readonly actAs: readonly string[];
  readonly userId: string | undefined;
  readonly timeoutMs: number;
  readonly beginExclusive: number;

  constructor(init: CommandOutcomeUnknownInit) {
    super(
      ErrorCodes.COMMAND_OUTCOME_UNKNOWN,
      `no completion for command ${init.commandId} (submission ${init.submissionId}) within ${init.timeoutMs} ms: its outcome is unknown, ` +
        `it may still commit. Read the completions after offset ${init.beginExclusive} for it, or submit it again with the same ` +
        'command id and actAs within the deduplication period (a command that committed is then rejected as DUPLICATE_COMMAND, not run twice)',
      { retryable: false, cause: init.cause },
    );
    this.commandId = init.commandId;
    this.submissionId = init.submissionId;
    this.actAs = init.actAs;
    this.userId = init.userId;
    this.timeoutMs = init.timeoutMs;
    this.beginExclusive = init.beginExclusive;
  }
}
