import { onPageFailure } from '../../retry/on-page-failure.js';
import { resolveRetryConfig } from '../../retry/resolve-retry-config.js';
import type { RetryConfig } from '../../retry/retry-config.js';
import type { TailStatus } from '../../operators/tail-status.js';
import { abortableSleep } from '../process/abortable-sleep.js';
import { StopRequested } from '../process/stop-requested.js';
import { ParticipantUnreachableError } from './participant-unreachable-error.js';
import { unreachableReason } from './unreachable-reason.js';

/** The first contact of a command with its participant, shared by its start-up calls (see {@link RetryStartupCallOptions.firstContact}). */
export interface FirstContact {
  /** The participant's base URL, for the message. */
  readonly url: string;
  /** Give up after this many ms of refused connections / unknown host before the first answer. */
  readonly giveUpMs: number;
  /** Set once a start-up call was answered: from then on, the participant is retried as any failure is. */
  reached: boolean;
  /** The clock (ms). Default `performance.now`. */
  readonly now?: () => number;
}

/** How {@link retryStartupCall} retries and reports. */
export interface RetryStartupCallOptions {
  /** The retry policy of the read that follows (`--max-retries` sets `maxAttempts`); default as `tailUpdates`. */
  readonly retry?: RetryConfig | undefined;
  /** Gets a `retrying` status before each wait (the command's `statusLogger`). */
  readonly onStatus?: ((status: TailStatus) => void) | undefined;
  /** The command's stop: aborts the call in flight and the wait between attempts. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Fail fast on a wrong address: until the participant answered once, a refused connection or an unknown
   * host is retried quietly for at most `giveUpMs`, then the call rejects with
   * `ParticipantUnreachableError`. Absent (`--wait-for-participant`): retried like any retryable failure.
   */
  readonly firstContact?: FirstContact | undefined;
}

/**
 * Runs a one-shot request of a streaming command's start-up (the ledger end, the pruning boundary) with the
 * same retry policy as the read itself (`onPageFailure`: only `retryable` errors, exponential backoff that
 * honours `retryInfo`), so an unreachable participant is treated alike before and during the read; except
 * that before the participant's first answer, with `firstContact`, a refused connection or an unknown host
 * gives up after `firstContact.giveUpMs` (no warning per attempt: one error at the end).
 *
 * Resolves with the first success. Rejects with `ParticipantUnreachableError` (exit 4) as just said, with
 * `RetriesExhaustedError` (exit 4) when a retryable failure outlasts `retry.maxAttempts` (with `maxAttempts`
 * 0, with the error itself, as the read does), with a non-retryable error as it is (exit 3 for a server
 * error), and with {@link StopRequested} as soon as `signal` aborts.
 */
export async function retryStartupCall<T>(call: (signal: AbortSignal | undefined) => Promise<T>, options: RetryStartupCallOptions = {}): Promise<T> {
  const config = resolveRetryConfig(options.retry);
  const signal = options.signal;
  const contact = options.firstContact;
  const now = contact?.now ?? (() => performance.now());
  const started = now();
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw new StopRequested();
    try {
      const answer = await call(signal);
      if (contact) contact.reached = true;
      return answer;
    } catch (error) {
      if (signal?.aborted) throw new StopRequested();
      const reason = contact && !contact.reached && config.maxAttempts > 0 ? unreachableReason(error) : undefined;
      if (contact && reason !== undefined) {
        const left = contact.giveUpMs - (now() - started);
        if (left <= 0) throw new ParticipantUnreachableError(contact.url, reason, now() - started, attempt, { cause: error });
        const decision = onPageFailure(error, undefined, attempt, { ...config, maxAttempts: Number.MAX_SAFE_INTEGER });
        await abortableSleep(Math.min(left, decision.action === 'wait' ? decision.delayMs : 0), signal);
        continue;
      }
      const decision = onPageFailure(error, undefined, attempt, config);
      if (decision.action === 'fail') throw decision.error;
      options.onStatus?.({ type: 'retrying', attempt, delayMs: decision.delayMs, error });
      await abortableSleep(decision.delayMs, signal);
    }
  }
}
