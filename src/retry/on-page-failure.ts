import { LedgerRxError } from '../errors/ledger-rx-error.js';
import { RetriesExhaustedError } from '../errors/retries-exhausted-error.js';
import { isListTooLarge } from './is-list-too-large.js';
import { resumesAtOnce } from './resumes-at-once.js';
import type { ResolvedRetryConfig } from './retry-config.js';
import { retryDelay } from './retry-delay.js';
import { statedListCap } from './stated-list-cap.js';

/** After a failed request: retry it after `delayMs`, or give up and error with `error`. */
export type RetryAction = { readonly action: 'wait'; readonly delayMs: number } | { readonly action: 'fail'; readonly error: unknown };

/**
 * What a paged read does after a page failed (see {@link onPageFailure}): a {@link RetryAction}, or, when
 * the list was too large (413), `lower`: ask again at once for at most `to` elements (the page asked for
 * `from`).
 */
export type PageFailureAction = RetryAction | { readonly action: 'lower'; readonly from: number; readonly to: number };

/**
 * The decision after a failed page, as a pure function (the only impurity is `config.random`, the jitter).
 *
 * - A 413 (`isListTooLarge`) on a page of `limit` > 1 elements: `lower` to the cap the server states when it
 *   is below `limit` (`statedListCap`), else to half of `limit` (at least 1). This does not use up an
 *   attempt. Without a `limit` (a read that has no page size to lower) a 413 is treated like any error.
 * - A token that expired or went stale mid-stream, or a page token the participant refused
 *   (`resumesAtOnce`), while `attempt` ≤ `maxAttempts`: `wait` 0 — the next request takes a fresh token or
 *   starts a new page chain, so there is nothing to wait for (it still counts, so a token provider that keeps
 *   handing out an expired token ends the read).
 * - An error marked `retryable` while `attempt` ≤ `maxAttempts`: `wait` for `retryDelay` (backoff with
 *   jitter, at least what the server asked for).
 * - Otherwise `fail`: with a `RetriesExhaustedError` (after `attempt - 1` retries, the error as its cause)
 *   when a retryable error ran out of attempts, else with the error itself (not retryable, or retries off).
 *
 * @param error - why the page failed.
 * @param limit - the page size the failed request asked for, or `undefined`.
 * @param attempt - the number this retry would have (1 after the first failure since the last progress).
 * @param config - the retry policy.
 */
export function onPageFailure(error: unknown, limit: undefined, attempt: number, config: ResolvedRetryConfig): RetryAction;
export function onPageFailure(error: unknown, limit: number | undefined, attempt: number, config: ResolvedRetryConfig): PageFailureAction;
export function onPageFailure(error: unknown, limit: number | undefined, attempt: number, config: ResolvedRetryConfig): PageFailureAction {
  if (limit !== undefined && limit > 1 && isListTooLarge(error)) {
    const cap = statedListCap(error);
    return { action: 'lower', from: limit, to: cap !== undefined && cap < limit ? cap : Math.max(1, Math.floor(limit / 2)) };
  }
  if (resumesAtOnce(error) && attempt <= config.maxAttempts) return { action: 'wait', delayMs: 0 };
  const delay = retryDelay(error, attempt, config);
  if (delay !== 'stop') return { action: 'wait', delayMs: delay };
  const exhausted = error instanceof LedgerRxError && error.retryable && config.maxAttempts > 0;
  return { action: 'fail', error: exhausted ? new RetriesExhaustedError(attempt - 1, error) : error };
}
