/**
 * Status of a paged read, reported on a side channel (`onStatus`), never mixed into the data.
 *
 * - `resumed` (informational): a request chain (re)started from `fromOffset`; `attempt` is 0 at the start
 *   and the retry number after a failure.
 * - `retrying` (informational, actionable if frequent): a retryable error happened; the next attempt starts
 *   in `delayMs`.
 * - `caught-up` (informational): every update up to about the ledger end has been delivered; the tail now
 *   waits for new ones (long poll).
 * - `limit-lowered` (informational): the server answered 413; the page limit went from `from` to `to`.
 * - `idle-timeout-raised` (informational, worth a look if frequent): catch-up pages kept coming back empty
 *   although the participant had more to send (its first element is slower than the idle timeout); the
 *   catch-up `stream_idle_timeout_ms` went from `from` to `to`.
 */
export type TailStatus =
  | { readonly type: 'resumed'; readonly fromOffset: number; readonly attempt: number }
  | { readonly type: 'retrying'; readonly attempt: number; readonly delayMs: number; readonly error: unknown }
  | { readonly type: 'caught-up'; readonly offset: number }
  | { readonly type: 'limit-lowered'; readonly from: number; readonly to: number }
  | { readonly type: 'idle-timeout-raised'; readonly from: number; readonly to: number };
