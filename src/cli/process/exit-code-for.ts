import { CommandFailedError } from '../../errors/command-failed-error.js';
import { CommandOutcomeUnknownError } from '../../errors/command-outcome-unknown-error.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { LedgerApiError } from '../../errors/ledger-api-error.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { RetriesExhaustedError } from '../../errors/retries-exhausted-error.js';
import { ExitCode } from './exit-code.js';
import { UsageError } from '../options/usage-error.js';
import { ParticipantUnreachableError } from '../source/participant-unreachable-error.js';

/**
 * The exit code for an error that ended a command:
 * `UsageError` and `InvalidArgumentError` (rejected before sending) → 2; `RetriesExhaustedError` and
 * `ParticipantUnreachableError` (a wrong address at start-up) → 4;
 * a `LedgerApiError` (any status: the stream operators already retried the retryable ones) or a
 * `ProtocolError` → 3; `CommandFailedError` → 5; `CommandOutcomeUnknownError` → 6; anything else → 1.
 */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError || error instanceof InvalidArgumentError) return ExitCode.USAGE;
  if (error instanceof RetriesExhaustedError || error instanceof ParticipantUnreachableError) return ExitCode.RETRIES_EXHAUSTED;
  if (error instanceof CommandFailedError) return ExitCode.COMMAND_FAILED;
  if (error instanceof CommandOutcomeUnknownError) return ExitCode.OUTCOME_UNKNOWN;
  if (error instanceof LedgerApiError || error instanceof ProtocolError) return ExitCode.SERVER;
  return ExitCode.ERROR;
}
