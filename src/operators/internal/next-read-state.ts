import { onPageFailure } from '../../retry/on-page-failure.js';
import type { ResolvedRetryConfig } from '../../retry/retry-config.js';
import type { TailStatus } from '../tail-status.js';
import type { PagePlan } from './page-plan.js';
import type { PageEnd, ReadSpec } from './read-spec.js';

/** Where a read stands for the engine: the read's own state, the page limit, the retry count, and whether it is done. */
export interface ReadState<S> {
  /** The read's state (`ReadSpec`'s), `undefined` until `start` gave it. */
  readonly read: S | undefined;
  /** The page limit: `pageLimit`, lowered by a 413. */
  readonly limit: number;
  /** The limit the page in flight asked for. */
  readonly asked: number;
  /** Failures since the last progress (an element delivered or a page ended). */
  readonly attempt: number;
  /** A `resumed` status is due before the next request (at the start, after a failure). */
  readonly resuming: boolean;
  /** The read is complete: no further page. */
  readonly finished: boolean;
}

/** What happened to a read, in the order the engine sees it. */
export type ReadEvent<S, E, R, B> =
  | { readonly type: 'started'; readonly read: S }
  /** The state is known and the next request is about to be planned. */
  | { readonly type: 'ready' }
  | { readonly type: 'planned'; readonly plan: PagePlan<R> | null }
  | { readonly type: 'delivered'; readonly offset: number | undefined; readonly element: E }
  /** The page ended normally; `reachedStop`: an element beyond the plan's `stopAfter` ended it, and the read. */
  | ({ readonly type: 'page-ended'; readonly reachedStop: boolean } & PageEnd<R, B>)
  | { readonly type: 'failed'; readonly error: unknown };

/** After a failure: ask again `now` (nothing to wait for), after the backoff `delayMs`, or end the read with `error`. */
export type ReadRetry = { readonly now: true } | { readonly delayMs: number } | { readonly error: unknown };

/** The outcome of {@link nextReadState}: the next state, the statuses to report (in order), and after a failure what to do. */
export interface ReadStep<S> {
  readonly state: ReadState<S>;
  readonly statuses: readonly TailStatus[];
  readonly retry?: ReadRetry;
}

/** The state a read starts in, with the page limit `pageLimit`. */
export function initialReadState<S>(pageLimit: number): ReadState<S> {
  return { read: undefined, limit: pageLimit, asked: pageLimit, attempt: 0, resuming: true, finished: false };
}

/**
 * The read engine's resume-and-page policy as a pure function of its state and an event (the read's own
 * decisions come from `spec`, the retry decision from `onPageFailure`):
 *
 * - `ready`: a `resumed` status when the read (re)starts (`attempt` 0 at the start, the retry number after);
 * - `planned`: the page's limit is noted (`null`: the read is complete);
 * - `delivered`: the read's cursor moves (`spec.delivered`), and the retry count starts over;
 * - `page-ended`: complete when the page reached `stopAfter`, else `spec.pageEnd` decides (`null`:
 *   complete);
 * - `failed`: first `spec.failed` (a refused transport is replaced: ask again at once); then a 413 lowers
 *   the limit (to the cap the server states, else half; status `limit-lowered`) and asks again at once, a
 *   retryable error waits its backoff (status `retrying`; the read resumes from the last delivered
 *   element), anything else ends the read with the error (`RetriesExhaustedError` when retries ran out).
 */
export function nextReadState<S, E, R, B>(
  state: ReadState<S>,
  event: ReadEvent<S, E, R, B>,
  spec: ReadSpec<S, E, R, B>,
  retry: ResolvedRetryConfig,
): ReadStep<S> {
  const read = state.read as S;
  switch (event.type) {
    case 'started':
      return { state: { ...state, read: event.read }, statuses: [] };
    case 'ready':
      if (!state.resuming) return { state, statuses: [] };
      return {
        state: { ...state, resuming: false },
        statuses: [{ type: 'resumed', fromOffset: spec.position(read), attempt: state.attempt, transport: spec.transport(read) }],
      };
    case 'planned':
      return { state: event.plan === null ? { ...state, finished: true } : { ...state, asked: event.plan.options.limit ?? state.limit }, statuses: [] };
    case 'delivered':
      return { state: { ...state, read: spec.delivered(read, event.offset, event.element), attempt: 0 }, statuses: [] };
    case 'page-ended': {
      const next = event.reachedStop ? null : spec.pageEnd(read, event);
      return { state: next === null ? { ...state, finished: true, attempt: 0 } : { ...state, read: next, attempt: 0 }, statuses: [] };
    }
    case 'failed':
      return afterFailure(state, event.error, spec, retry);
  }
}

function afterFailure<S, E, R, B>(state: ReadState<S>, error: unknown, spec: ReadSpec<S, E, R, B>, retry: ResolvedRetryConfig): ReadStep<S> {
  const handled = state.read === undefined ? undefined : spec.failed?.(state.read, error);
  const current = handled === undefined ? state : { ...state, read: handled.state };
  if (handled?.now === true) return { state: { ...current, resuming: true }, statuses: [], retry: { now: true } };
  const decision = onPageFailure(error, Math.min(state.limit, state.asked), state.attempt + 1, retry);
  switch (decision.action) {
    case 'lower':
      return { state: { ...current, limit: decision.to }, statuses: [{ type: 'limit-lowered', from: decision.from, to: decision.to }], retry: { now: true } };
    case 'wait': {
      const attempt = state.attempt + 1;
      return {
        state: { ...current, attempt, resuming: true },
        statuses: [{ type: 'retrying', attempt, delayMs: decision.delayMs, error }],
        retry: { delayMs: decision.delayMs },
      };
    }
    case 'fail':
      return { state: current, statuses: [], retry: { error: decision.error } };
  }
}
