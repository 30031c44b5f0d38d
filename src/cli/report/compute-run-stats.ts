import type { RunStats } from './run-stats.js';

/** The raw counters of a run. */
export interface RunCounters {
  readonly count: number;
  readonly bytes: number;
  readonly elapsedMs: number;
  readonly firstOffset: number | undefined;
  readonly lastOffset: number | undefined;
  readonly retries: number;
  readonly transport?: string | undefined;
}

/**
 * The {@link RunStats} of a run's counters: seconds with millisecond precision, updates/s rounded to one
 * decimal (0 for a run of no measurable duration), absent offsets as `null`.
 */
export function computeRunStats(c: RunCounters): RunStats {
  const seconds = Math.round(c.elapsedMs) / 1000;
  return {
    count: c.count,
    bytes: c.bytes,
    seconds,
    updatesPerSecond: seconds > 0 ? Math.round((c.count / seconds) * 10) / 10 : 0,
    firstOffset: c.firstOffset ?? null,
    lastOffset: c.lastOffset ?? null,
    retries: c.retries,
    transport: c.transport ?? null,
  };
}
