import type { TailStatus } from '../tail-status.js';
import { tailStartLimit, type TailSettings, type TailState } from './tail-state.js';

/** What a page of the tail brought, as {@link nextTailState} weighs it. */
export interface TailPage {
  /** Elements the page brought. */
  readonly received: number;
  /** The `limit` the page asked for. */
  readonly asked: number;
  /** Scheduler time from the request to the end of the page. */
  readonly durationMs: number;
  /** Whether the request had an `endInclusive` (the last stretch of a bounded tail). */
  readonly bounded: boolean;
}

/** The outcome of {@link nextTailState}: the next state (`null`: the read is complete), and a status to report. */
export interface TailStep {
  readonly state: TailState | null;
  readonly status?: TailStatus;
}

/**
 * A participant measures the idle timeout of a page from the start of the stream, so one whose first
 * element takes longer than the catch-up idle timeout answers every catch-up page with `[]`: the tail would
 * then fetch one element per long poll. The sign: an empty catch-up page right after a long poll that
 * returned its element quickly — within {@link quickLiveMs} or {@link quickLiveFactor} × the idle timeout,
 * whichever is longer. After this many such pages in a row the idle timeout doubles (up to `longPollMs`).
 * A live stream sparser than that never strikes; a denser one may raise it until its catch-up pages catch
 * the next update, which costs little: such pages end on their limit, which shrinks to the target latency.
 * A slower first element than {@link quickLiveMs} is not detected: set `idleTimeoutMs` for it.
 */
const slowFirstElementStrikes = 3;
const quickLiveFactor = 4;
const quickLiveMs = 250;

/**
 * The tail's adaptive page and idle policy, as a pure function of the state and the page that just ended:
 *
 * - a bounded page: complete when it came back short, else go on;
 * - a long poll (`live`) that idled out: stay live, the learnt idle timeout starts over; one that brought
 *   an element: catch up again from a small page, remembering how long the long poll took;
 * - an empty catch-up page right after a quick long poll: a strike (see `slowFirstElementStrikes`); the
 *   third in a row doubles the idle timeout (status `idle-timeout-raised`); either way back to the long poll;
 * - a full catch-up page: smaller when it filled more slowly than the target latency (a live stream),
 *   twice as large (up to `pageLimit`) when it filled in under half of it (a backlog);
 * - a short catch-up page: caught up (status `caught-up` the first time), long poll next.
 */
export function nextTailState(state: TailState, page: TailPage, settings: TailSettings): TailStep {
  const { received, asked, durationMs } = page;
  if (page.bounded) return { state: received < asked ? null : state };
  if (state.mode === 'live') {
    // a long poll that idled out: the stream really is quiet, so the learnt idle timeout starts over
    if (received === 0) return { state: { ...state, idle: settings.idle, strikes: 0, firstElementMs: 0 } };
    return { state: { ...state, mode: 'catch-up', limit: Math.min(state.limit, tailStartLimit), lastLiveMs: durationMs } };
  }
  if (
    received === 0 &&
    state.lastLiveMs !== undefined &&
    state.lastLiveMs < Math.max(quickLiveMs, quickLiveFactor * state.idle) &&
    state.idle < settings.longPoll
  ) {
    const strikes = state.strikes + 1;
    if (strikes >= slowFirstElementStrikes) {
      const raised = Math.min(settings.longPoll, Math.max(1, state.idle * 2));
      const firstElementMs = Math.max(state.firstElementMs, state.lastLiveMs);
      return {
        state: { ...state, mode: 'live', caughtUp: true, idle: raised, strikes: 0, lastLiveMs: undefined, firstElementMs },
        status: { type: 'idle-timeout-raised', from: state.idle, to: raised },
      };
    }
    return { state: { ...state, mode: 'live', caughtUp: true, strikes, lastLiveMs: undefined } };
  }
  const after = received > 0 ? { ...state, strikes: 0, lastLiveMs: undefined } : state;
  if (received >= asked) {
    // A full page: shrink it if it filled more slowly than the target latency (a live stream), grow it if
    // it filled fast (a backlog, where big pages are cheapest).
    const fillMs = Math.max(0, durationMs - after.firstElementMs);
    if (fillMs > settings.targetLatency) return { state: { ...after, limit: Math.max(1, Math.floor((asked * settings.targetLatency) / fillMs)) } };
    if (fillMs < settings.targetLatency / 2) return { state: { ...after, caughtUp: false, limit: Math.min(settings.pageLimit, asked * 2) } };
    return { state: after };
  }
  const live: TailState = { ...after, mode: 'live', caughtUp: true };
  return after.caughtUp ? { state: live } : { state: live, status: { type: 'caught-up', offset: after.cursor } };
}
