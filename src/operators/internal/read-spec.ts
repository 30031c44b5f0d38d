import type { ObservableInput } from 'rxjs';
import type { ReadTransport } from '../read-transport.js';
import type { PageBounds } from './page-answer.js';
import type { PagePlan } from './page-plan.js';

/** How a page ended, as a read's {@link ReadSpec.pageEnd} weighs it. */
export interface PageEnd<R, B = PageBounds> {
  readonly plan: PagePlan<R>;
  /** Elements the answer brought (checkpoints that were skipped included). */
  readonly received: number;
  /** Scheduler time from the request to the end of the page. */
  readonly durationMs: number;
  /** What a page answer said beyond its elements (plans of the `page` transport). */
  readonly bounds: B | undefined;
}

/**
 * The read-specific decisions the read engine asks for; `S` is the read's state (its cursor, mode, transport
 * choice, ...), `E` its elements, `R` its requests. Apart from `start` and `plan` (which may look things up:
 * a checkpoint store, the ledger end), each is a pure function of the state.
 */
export interface ReadSpec<S, E, R, B = PageBounds> {
  /** The initial state (may look up a checkpoint store or the ledger end). */
  start(): ObservableInput<S>;
  /** The next request of `state` with the current page `limit`, or `null` when the read is complete. */
  plan(state: S, limit: number): ObservableInput<PagePlan<R> | null>;
  /** The state after `element`, at `offset` (or without one), was delivered. */
  delivered(state: S, offset: number | undefined, element: E): S;
  /** The state after a page ended; `null` completes the read. */
  pageEnd(state: S, page: PageEnd<R, B>): S | null;
  /** The offset a (re)start resumes from, for the `resumed` status. */
  position(state: S): number;
  /** The transport the next request of `state` goes through, for the `resumed` status. */
  transport(state: S): ReadTransport;
  /**
   * Called first when a request failed: the state to go on with, and `now: true` when the read should ask
   * again at once without counting an attempt (the spec dealt with it: a transport the participant refused
   * was replaced). `undefined`: the state stays, and the retry policy decides.
   */
  failed?(state: S, error: unknown): { readonly state: S; readonly now: boolean } | undefined;
}
