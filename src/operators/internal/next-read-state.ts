import type { ObservableInput } from 'rxjs';
import { onPageFailure } from '../../retry/on-page-failure.js';
import type { ResolvedRetryConfig } from '../../retry/retry-config.js';
import type { Transport } from '../../updates/transport.js';
import type { TailStatus } from '../tail-status.js';
import type { PageChain } from './page-chain.js';
import type { PagePlan } from './page-plan.js';

/** How a page ended: its plan, the elements it brought (skipped checkpoints included), its scheduler time, its bounds (page answers). */
export interface PageEnd<R, B = PageChain> {
  readonly plan: PagePlan<R>;
  readonly received: number;
  readonly durationMs: number;
  readonly bounds: B | undefined;
}

/**
 * The read-specific decisions of a read on the engine; `S` is the read's state (cursor, mode, transport
 * choice, ...), `E` its elements, `R` its requests, `B` what its page answers say beyond their elements.
 * `start` and `plan` may look things up (a checkpoint store, the ledger end); the others are pure.
 */
export interface ReadSpec<S, E, R, B = PageChain> {
  start(): ObservableInput<S>;
  /** The next request with the current page `limit`, or `null` when the read is complete. */
  plan(state: S, limit: number): ObservableInput<PagePlan<R> | null>;
  /** The state after `element`, at `offset` (or without one), was delivered. */
  delivered(state: S, offset: number | undefined, element: E): S;
  /** The state after a page ended; `null` completes the read. */
  pageEnd(state: S, page: PageEnd<R, B>): S | null;
  /** The offset and the transport a (re)start resumes with, for the `resumed` status. */
  position(state: S): number;
  transport(state: S): Exclude<Transport, 'auto'>;
  /**
   * Asked first when a request failed: the state to go on with, and `now: true` to ask again at once without
   * counting an attempt (a refused transport was replaced); `undefined` leaves it to the retry policy.
   */
  failed?(state: S, error: unknown): { readonly state: S; readonly now: boolean } | undefined;
}

/** Where a read stands for the engine. */
export interface ReadState<S> {
  /** The read's state (`ReadSpec`'s), `undefined` until `start` gave it. */
  readonly read: S | undefined;
  /** The page limit (`pageLimit`, lowered by a 413), and the limit the page in flight asked for. */
  readonly limit: number;
  readonly asked: number;
  /** Failures since the last progress (an element delivered, a page ended). */
  readonly attempt: number;
  /** A `resumed` status is due before the next request (at the start, after a failure). */
  readonly resuming: boolean;
  readonly finished: boolean;
}

/** What happens to a read, in order: `ready` means the state is known and the next request is about to be planned. */
export type ReadEvent<S, E, R, B> =
  | { readonly type: 'started'; readonly read: S }
  | { readonly type: 'ready' }
  | { readonly type: 'planned'; readonly plan: PagePlan<R> | null }
  | { readonly type: 'delivered'; readonly offset: number | undefined; readonly element: E }
  /** `reachedStop`: an element beyond the plan's `stopAfter` ended the page, and the read. */
  | ({ readonly type: 'page-ended'; readonly reachedStop: boolean } & PageEnd<R, B>)
  | { readonly type: 'failed'; readonly error: unknown };

/** After a failure: ask again `now`, after the backoff `delayMs`, or end the read with `error`. */
export type ReadRetry = { readonly now: true } | { readonly delayMs: number } | { readonly error: unknown };

/** The outcome of {@link nextReadState}: the next state, the statuses to report in order, and after a failure what to do. */
export interface ReadStep<S> {
  readonly state: ReadState<S>;
  readonly statuses: readonly TailStatus[];
  readonly retry?: ReadRetry;
}

/** The statuses of a step that reports none (shared: a delivered element makes no array). */
const noStatuses: readonly TailStatus[] = Object.freeze([]);

/**
 * The state after an element was delivered: the read's state `read`, the retry count reset. Made once per
 * element, so written out field by field (an object spread with overrides costs tens of times more in V8).
 */
function afterDelivery<S>(state: ReadState<S>, read: S): ReadState<S> {
  return { read, limit: state.limit, asked: state.asked, attempt: 0, resuming: state.resuming, finished: state.finished };
}

/** The state a read starts in, with the page limit `pageLimit`. */
export function initialReadState<S>(pageLimit: number): ReadState<S> {
  return { read: undefined, limit: pageLimit, asked: pageLimit, attempt: 0, resuming: true, finished: false };
}

/**
 * The read engine's resume-and-page policy, a pure function of its state and an event (the read's own
 * decisions come from `spec`):
 *
 * - `ready`: a `resumed` status when the read (re)starts (`attempt` 0 at the start, the retry number after);
 * - `planned`: the page's limit is noted (`null`: the read is complete);
 * - `delivered`: the read's cursor moves (`spec.delivered`), and the retry count starts over;
 * - `page-ended`: complete when the page reached `stopAfter`, else as `spec.pageEnd` says;
 * - `failed`: first `spec.failed` (a refused transport replaced: ask again at once); then `onPageFailure`: a
 *   413 lowers the limit (status `limit-lowered`) and asks again at once, a retryable error waits its backoff
 *   (status `retrying`; the read resumes from the last delivered element), anything else ends the read.
 */
export function nextReadState<S, E, R, B>(state: ReadState<S>, event: ReadEvent<S, E, R, B>, spec: ReadSpec<S, E, R, B>, retry: ResolvedRetryConfig): ReadStep<S> {
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
      return { state: afterDelivery(state, spec.delivered(read, event.offset, event.element)), statuses: noStatuses };
    case 'page-ended': {
      const next = event.reachedStop ? null : spec.pageEnd(read, event);
      return { state: next === null ? { ...state, finished: true, attempt: 0 } : { ...state, read: next, attempt: 0 }, statuses: [] };
    }
    case 'failed': {
      const handled = state.read === undefined ? undefined : spec.failed?.(state.read, event.error);
      const current = handled === undefined ? state : { ...state, read: handled.state };
      if (handled?.now === true) return { state: { ...current, resuming: true }, statuses: [], retry: { now: true } };
      const decision = onPageFailure(event.error, Math.min(state.limit, state.asked), state.attempt + 1, retry);
      if (decision.action === 'fail') return { state: current, statuses: [], retry: { error: decision.error } };
      if (decision.action === 'lower') {
        return { state: { ...current, limit: decision.to }, statuses: [{ type: 'limit-lowered', from: decision.from, to: decision.to }], retry: { now: true } };
      }
      const attempt = state.attempt + 1;
      return { state: { ...current, attempt, resuming: true }, statuses: [{ type: 'retrying', attempt, delayMs: decision.delayMs, error: event.error }], retry: { delayMs: decision.delayMs } };
    }
  }
}
