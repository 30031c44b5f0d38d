/**
 * Where a `tailUpdates` read stands between two pages: its cursor, whether it catches up or long-polls,
 * and what it has learnt about the participant (page size, idle timeout). Immutable: {@link nextTailState}
 * makes the next one.
 */
export interface TailState {
  /** The offset of the last delivered element: the next request's `beginExclusive`. */
  readonly cursor: number;
  /** `catch-up`: pages of up to `limit` with the idle timeout `idle`; `live`: a long poll for one element. */
  readonly mode: 'catch-up' | 'live';
  /** Whether `caught-up` was reported since the tail last fell behind. */
  readonly caughtUp: boolean;
  /** The catch-up page size, adapted to how fast pages fill (≤ the engine's limit, which a 413 lowers). */
  readonly limit: number;
  /** The catch-up idle timeout, raised when the participant's first element is slower than it. */
  readonly idle: number;
  /** How long the last long poll took to return its element (ms), until the catch-up page after it ends. */
  readonly lastLiveMs: number | undefined;
  /** Consecutive empty catch-up pages that followed a quick long poll (see `slowFirstElementStrikes`). */
  readonly strikes: number;
  /**
   * The participant's time to a first element, once found slow (else 0): not counted when a full page's
   * time is compared with the target latency, so a slow start does not pass for a slowly filling page.
   */
  readonly firstElementMs: number;
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
    mode: 'catch-up',
    caughtUp: false,
    limit: Math.min(settings.pageLimit, tailStartLimit),
    idle: settings.idle,
    lastLiveMs: undefined,
    strikes: 0,
    firstElementMs: 0,
  };
}
