import { onPageFailure } from '../../retry/on-page-failure.js';
import { resolveRetryConfig } from '../../retry/resolve-retry-config.js';
import type { RetryConfig } from '../../retry/retry-config.js';
import type { TailStatus } from '../../operators/tail-status.js';
import { abortableSleep } from '../process/abortable-sleep.js';
import { StopRequested } from '../process/stop-requested.js';

/** How {@link retryStartupCall} retries and reports. */
export interface RetryStartupCallOptions {
  /** The retry policy of the read that follows (`--max-retries` sets `maxAttempts`); default as `tailUpdates`. */
  readonly retry?: RetryConfig | undefined;
  /** Gets a `retrying` status before each wait (the command's `statusLogger`). */
  readonly onStatus?: ((status: TailStatus) => void) | undefined;
  /** The command's stop: aborts the call in flight and the wait between attempts. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Runs a one-shot request of a streaming command's start-up (the ledger end, the pruning boundary) with the
 * same retry policy as the read itself (`onPageFailure`: only `retryable` errors, exponential backoff that
 * honours `retryInfo`), so an unreachable participant is treated alike before and during the read.
 *
 * Resolves with the first success. Rejects with `RetriesExhaustedError` (exit 4) when a retryable
 * failure outlasts `retry.maxAttempts` (with `maxAttempts` 0, with the error itself, as the read does), with
 * a non-retryable error as it is (exit 3 for a server error), and with {@link StopRequested} as soon as
 * `signal` aborts.
 */
export async function retryStartupCall<T>(call: (signal: AbortSignal | undefined) => Promise<T>, options: RetryStartupCallOptions = {}): Promise<T> {
  const config = resolveRetryConfig(options.retry);
  const signal = options.signal;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw new StopRequested();
    try {
      return await call(signal);
    } catch (error) {
      if (signal?.aborted) throw new StopRequested();
      const decision = onPageFailure(error, undefined, attempt, config);
      if (decision.action === 'fail') throw decision.error;
      options.onStatus?.({ type: 'retrying', attempt, delayMs: decision.delayMs, error });
      await abortableSleep(decision.delayMs, signal);
    }
  }
}
