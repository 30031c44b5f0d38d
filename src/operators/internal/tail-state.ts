import { checkInteger } from './check-integer.js';

/**
 * Where a `tailUpdates` read stands between two pages: its cursor, whether it catches up or long-polls,
 * and what it has learnt about the participant (page size, idle timeout). Immutable: {@link nextTailState}
 * makes the next one.
 */
export interface TailState {
  /** The offset of the last delivered element: the next request's `beginExclusive`. */
  readonly cursor: number;
  /** Whether the element at `cursor` is an `OffsetCheckpoint` (it says nothing about a slow first element). */
  readonly atCheckpoint: boolean;
  /** `catch-up`: pages of up to `limit` with the idle timeout `idle`; `live`: a long poll for one element. */
  readonly mode: 'catch-up' | 'live';
  /** Whether `caught-up` was reported since the tail last fell behind. */
  readonly caughtUp: boolean;
  /** The catch-up page size, adapted to how fast pages fill (≤ the engine's limit, which a 413 lowers). */
  readonly limit: number;
  /** The catch-up idle timeout, raised when the participant's first element is slower than it. */
  readonly idle: number;
  /**
   * `true` when the next page (a catch-up right after a long poll) is to be asked with the ledger end read
   * just before it (`TailPage.ledgerEnd`), to tell a slow participant from a quiet stream.
   */
  readonly checkLedgerEnd: boolean;
  /**
   * The ledger end read before the empty catch-up page that just ended, while the long poll after it runs:
   * an update at or below it existed when that page was asked, so the page should have brought it.
   */
  readonly missedUpTo: number | undefined;
  /** Proven misses in a row (see `slowFirstElementStrikes`). */
  readonly strikes: number;
  /** Long polls to let pass before the next ledger-end check (the check backs off while the stream is live). */
  readonly checkIn: number;
  /** The current back-off between checks: 0 after a miss, doubling up to `maxCheckGap` while none is found. */
  readonly checkGap: number;
  /**
   * The participant's time to a first element, once found slow (else 0): not counted when a full page's
   * time is compared with the target latency, so a slow start does not pass for a slowly filling page.
   */
  readonly firstElementMs: number;
}

/**
 * The state once an element at `cursor` was delivered (`atCheckpoint`: it is an `OffsetCheckpoint`), the rest
 * unchanged. Made once per element, so written out field by field: an object spread with overrides costs
 * tens of times more in V8 (docs/benchmarks.md#per-element-cost-of-the-read-engine).
 */
export function tailAt(state: TailState, cursor: number, atCheckpoint: boolean): TailState {
  return {
    cursor,
    atCheckpoint,
    mode: state.mode,
    caughtUp: state.caughtUp,
    limit: state.limit,
    idle: state.idle,
    checkLedgerEnd: state.checkLedgerEnd,
    missedUpTo: state.missedUpTo,
    strikes: state.strikes,
    checkIn: state.checkIn,
    checkGap: state.checkGap,
    firstElementMs: state.firstElementMs,
  };
}

/** The tail's fixed settings (its options with defaults applied), in ms and elements. */
export interface TailSettings {
  /** The largest page (`pageLimit`). */
  readonly pageLimit: number;
  /** The configured catch-up idle timeout (`idleTimeoutMs`), where a learnt one starts over. */
  readonly idle: number;
  /** The long poll's idle timeout (`longPollMs`), also the most the catch-up idle timeout is raised to. */
  readonly longPoll: number;
  /** `targetLatencyMs`. */
  readonly targetLatency: number;
}

/**
 * The page size a catch-up starts with (at the start and after a long poll): small, so that a live stream
 * is not collected into one long page; pages that fill fast double, so a backlog reaches `pageLimit` in a
 * few requests.
 */
export const tailStartLimit = 8;

/** The state a tail starts in at `cursor`: catching up, with a small first page and the configured idle timeout. */
export function initialTailState(cursor: number, settings: TailSettings): TailState {
  return {
    cursor,
    atCheckpoint: false,
    mode: 'catch-up',
    caughtUp: false,
    limit: Math.min(settings.pageLimit, tailStartLimit),
    idle: settings.idle,
    checkLedgerEnd: false,
    missedUpTo: undefined,
    strikes: 0,
    checkIn: 0,
    checkGap: 0,
    firstElementMs: 0,
  };
}

/**
 * A list tail's settings from its options, with the defaults: page 200, idle 20, long poll 5 000, target
 * latency 50. Throws `InvalidArgumentError` for a start offset or a time that is not an integer in range.
 */
export function tailSettings(options: { readonly beginExclusive?: number | string | undefined; readonly pageLimit?: number | undefined; readonly idleTimeoutMs?: number | undefined; readonly longPollMs?: number | undefined; readonly targetLatencyMs?: number | undefined }): TailSettings {
  if (typeof options.beginExclusive === 'number') checkInteger('beginExclusive', options.beginExclusive, 0);
  checkInteger('idleTimeoutMs', options.idleTimeoutMs, 0);
  checkInteger('longPollMs', options.longPollMs, 1);
  checkInteger('targetLatencyMs', options.targetLatencyMs, 1);
  return { pageLimit: options.pageLimit ?? 200, idle: options.idleTimeoutMs ?? 20, longPoll: options.longPollMs ?? 5_000, targetLatency: options.targetLatencyMs ?? 50 };
}

/** The `limit` and `stream_idle_timeout_ms` of a list tail's next page (`limit`: the engine's): a catch-up page, or a long poll for one element. */
export function listPageOptions(tail: TailState, limit: number, settings: TailSettings): { readonly limit: number; readonly streamIdleTimeoutMs: number } {
  const live = tail.mode === 'live';
  return { limit: live ? 1 : Math.min(limit, tail.limit), streamIdleTimeoutMs: live ? settings.longPoll : tail.idle };
}
