import { fullPageLimit } from './full-page-limit.js';
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
  /** The ledger end read right before the page was asked, when the state asked for it (`checkLedgerEnd`). */
  readonly ledgerEnd?: number | undefined;
  /**
   * Whether the page moved the cursor (default `true` when it brought elements). `false` for a page whose
   * only element was a checkpoint at the offset already reached, which is skipped: a participant answers a
   * long poll that rests at its cached checkpoint with that checkpoint about 500 ms into the stream
   * (docs/websocket-protocol.md §6, the same in a list), and such an answer says only that the stream is quiet.
   */
  readonly advanced?: boolean | undefined;
}

/** The outcome of {@link nextTailState}: the next state (`null`: the read is complete), and a status to report. */
export interface TailStep {
  readonly state: TailState | null;
  readonly status?: TailStatus;
}

/**
 * A participant measures a page's idle timeout from the start of the stream, so one whose first element takes
 * longer than the catch-up idle timeout answers every catch-up page with `[]`: the tail would fetch one element
 * per long poll. By timing alone a quiet live stream looks the same (an empty catch-up page, then a long poll
 * that returns soon), so the tail asks for proof: before the catch-up page that follows a long poll it reads
 * the ledger end, and when that page comes back empty and the next long poll brings an update at or below
 * that ledger end, the update already existed when the page was asked: the page missed it, a strike. This
 * many strikes in a row double the idle timeout (up to `longPoll`).
 */
const slowFirstElementStrikes = 3;

/**
 * An update above that ledger end is new: the stream is live and the empty page was right. The checks then
 * back off (the next one after 1, 2, 4, ... up to this many long polls), so a quiet stream costs few
 * ledger-end reads; a strike checks every long poll again.
 */
const maxCheckGap = 16;

/**
 * The tail's adaptive page and idle policy, as a pure function of the state and the page that just ended:
 *
 * - a bounded page: complete when it came back short, else go on;
 * - a long poll (`live`) that idled out, or brought only a checkpoint at the cursor (`advanced: false`):
 *   the stream is quiet, so stay live (long poll again, no catch-up page, no ledger-end check, no strike),
 *   the learnt idle timeout starts over; one that brought an element: catch up again from a small page, after weighing the proof of a miss (see
 *   `slowFirstElementStrikes`): the third strike in a row doubles the idle timeout (status
 *   `idle-timeout-raised`); `checkLedgerEnd` says whether the next page is to be checked;
 * - an empty catch-up page: caught up, long poll next, remembering the ledger end read before it, if any;
 * - a full catch-up page: smaller when it filled more slowly than the target latency (a live stream),
 *   twice as large (up to `pageLimit`) when it filled in under half of it (a backlog);
 * - a short catch-up page: caught up (status `caught-up` the first time), long poll next.
 */
export function nextTailState(state: TailState, page: TailPage, settings: TailSettings): TailStep {
  const { received, asked, durationMs } = page;
  if (page.bounded) return { state: received < asked ? null : state };
  if (state.mode === 'live') {
    // a long poll that idled out, or was answered with the checkpoint it rests at: the stream really is
    // quiet, so the learnt idle timeout starts over
    if (received === 0 || page.advanced === false) return { state: { ...state, idle: settings.idle, strikes: 0, firstElementMs: 0, missedUpTo: undefined } };
    return afterLongPoll(state, durationMs, settings);
  }
  const checked = state.checkLedgerEnd ? page.ledgerEnd : undefined;
  const after: TailState =
    received > 0 ? { ...state, checkLedgerEnd: false, strikes: 0 } : { ...state, checkLedgerEnd: false, missedUpTo: checked };
  if (received >= asked) {
    // A full page: shrink it if it filled more slowly than the target latency (a live stream), grow it if
    // it filled fast (a backlog, where big pages are cheapest).
    const fillMs = Math.max(0, durationMs - after.firstElementMs);
    const limit = fullPageLimit(asked, fillMs, settings.targetLatency, settings.pageLimit);
    if (limit === undefined) return { state: after };
    // a page that filled fast means a backlog: not caught up
    return { state: fillMs > settings.targetLatency ? { ...after, limit } : { ...after, caughtUp: false, limit } };
  }
  const live: TailState = { ...after, mode: 'live', caughtUp: true };
  return after.caughtUp ? { state: live } : { state: live, status: { type: 'caught-up', offset: after.cursor } };
}

/** A long poll brought an element (now at the cursor): weigh the proof of a miss, then catch up from a small page. */
function afterLongPoll(state: TailState, durationMs: number, settings: TailSettings): TailStep {
  let { idle, strikes, checkIn, checkGap, firstElementMs } = state;
  let status: TailStatus | undefined;
  const missed = state.missedUpTo === undefined || state.atCheckpoint ? undefined : state.cursor <= state.missedUpTo;
  if (missed === true) {
    strikes += 1;
    checkGap = 0;
    checkIn = 0;
    if (strikes >= slowFirstElementStrikes) {
      const raised = Math.min(settings.longPoll, Math.max(1, idle * 2));
      status = { type: 'idle-timeout-raised', from: idle, to: raised };
      idle = raised;
      strikes = 0;
      firstElementMs = Math.max(firstElementMs, durationMs);
    }
  } else if (missed === false) {
    strikes = 0;
    checkGap = Math.min(maxCheckGap, Math.max(1, checkGap * 2));
    checkIn = checkGap;
  } else {
    checkIn = Math.max(0, checkIn - 1);
  }
  const next: TailState = {
    ...state,
    mode: 'catch-up',
    limit: Math.min(state.limit, tailStartLimit),
    idle,
    checkLedgerEnd: checkIn === 0 && idle < settings.longPoll,
    missedUpTo: undefined,
    strikes,
    checkIn,
    checkGap,
    firstElementMs,
  };
  return status ? { state: next, status } : { state: next };
}
