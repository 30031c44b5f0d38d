import type { CheckpointSnapshot, Ledger } from '../ledger/ledger.js';

/** What to read and when to stop (docs/server-behavior.md#updates-list-completion). */
export interface ReadPlan {
  readonly beginExclusive: number;
  /** `undefined` for an open-ended (tailing) read. */
  readonly endInclusive: number | undefined;
  readonly descending: boolean;
  /** Stop after this many elements (checkpoints included). */
  readonly cap: number;
  /** The idle timeout in ms, or `undefined` when the read has no idle timer. */
  readonly idleMs: number | undefined;
  /**
   * Open-ended reads: after the initial probe, probe for a checkpoint again whenever the read has seen
   * no new record of the log for this long (the server's `idleStreamOffsetCheckpointTimeout`, 60 s).
   * `undefined`: the initial probe only.
   */
  readonly checkpointProbeMs?: number | undefined;
}

/**
 * An offset-ordered log a read walks — the update log, or the completion log — and how its records become
 * elements for one request.
 */
export interface LogSource<R extends { readonly offset: number }> {
  /** Index of the first record with an offset greater than `offset` (the log's length if none). */
  indexAfter(offset: number): number;
  /** The record at index `i`. */
  at(i: number): R | undefined;
  /** The element text of a record, or `undefined` when the request's filter leaves it out. */
  render(record: R): string | undefined;
  /** The `OffsetCheckpoint` element of a checkpoint snapshot. */
  checkpoint(snapshot: CheckpointSnapshot): string;
}

/** Receives the elements of a read. */
export interface ElementSink {
  /** One element and the offset it carries; a returned promise pauses the read (backpressure). */
  element(json: string, offset: number): void | Promise<void>;
  /** Called before the read waits for new updates (a streaming sink flushes what it holds). */
  idle(): void | Promise<void>;
}

/** Checks run before each element is handed out (the stream's ongoing authorization). */
export interface ElementGuard {
  /** Throws to end the read (e.g. `ACCESS_TOKEN_EXPIRED`); the read rejects with that error. */
  beforeElement(): void;
}

const unguarded: ElementGuard = { beforeElement() {} };

/** Delay of the server's first idle checkpoint probe after a stream starts. */
export const initialCheckpointProbeMs = 500;

const yieldEvery = 4096;

function nextTick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The longest delay `setTimeout` takes; a longer one would fire after 1 ms (TimeoutOverflowWarning). */
const maxTimerMs = 2 ** 31 - 1;

/**
 * Resolves on the next append, after `ms`, or on abort, whichever comes first. A delay beyond the timer
 * limit (a huge `stream_idle_timeout_ms`) wakes at the limit instead; the caller re-checks its deadline.
 */
function waitForAppend(ledger: Ledger, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      off();
      if (timer !== undefined) clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const off = ledger.onAppend(done);
    if (Number.isFinite(ms)) timer = setTimeout(done, Math.min(maxTimerMs, Math.max(0, ms)));
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Reads an offset log (`source`: the update log or the completion log of `ledger`, whose appends wake it
 * up and whose ledger end and checkpoint it follows) into `sink`, following the server's list algorithm (docs/server-behavior.md#updates-list-completion to #offset-checkpoints):
 *
 * - ascending from `beginExclusive` (or descending from `endInclusive`), skipping updates the format
 *   filters out entirely; offsets of emitted elements strictly increase (decrease when descending);
 * - stops after `cap` elements, when a bounded range is exhausted, or — open-ended reads only — when no
 *   element was emitted for `idleMs` (measured from the start and then from each element) while the
 *   read sits at the ledger end waiting for NEW updates, which it serves as they are appended;
 * - open-ended reads also carry `OffsetCheckpoint`s (counted like any element): the cached checkpoint
 *   is emitted right before the first update beyond it, and by idle probes when the read is at rest
 *   exactly at the checkpoint's offset (caught up, with the ledger end at the checkpoint), which
 *   includes a read that starts at the checkpoint and finds nothing new. Probes run once
 *   {@link initialCheckpointProbeMs} after the start, then (with `checkpointProbeMs`) every
 *   `checkpointProbeMs` in which the read saw no new record of the log. A checkpoint is emitted at most once per read and
 *   its offset is above the previous element's (checkpoints point at offsets of invisible events), so
 *   element offsets strictly increase. When the probe and the idle timeout fall due together, the idle
 *   timeout wins.
 *
 * Scanning the in-memory log counts as activity: the idle deadline is only checked at the ledger end.
 * `guard.beforeElement()` runs before every element; what it throws ends the read with that error.
 * Returns the number of elements emitted; stops early (silently) when `signal` aborts.
 */
export async function readLog<R extends { readonly offset: number }>(
  ledger: Ledger,
  source: LogSource<R>,
  plan: ReadPlan,
  sink: ElementSink,
  signal: AbortSignal,
  guard: ElementGuard = unguarded,
): Promise<number> {
  let count = 0;
  if (plan.cap <= 0) return 0;
  const begin = plan.beginExclusive;
  const end = plan.endInclusive;
  let scanned = 0;

  if (plan.descending) {
    for (let i = source.indexAfter(end ?? ledger.ledgerEnd()) - 1; i >= 0; i--) {
      const u = source.at(i);
      if (!u || u.offset <= begin) break;
      const json = source.render(u);
      if (json !== undefined) {
        guard.beforeElement();
        const r = sink.element(json, u.offset);
        if (r) await r;
        if (++count >= plan.cap || signal.aborted) return count;
      }
      if (++scanned % yieldEvery === 0) {
        await nextTick();
        if (signal.aborted) return count;
      }
    }
    return count;
  }

  const checkpoints = end === undefined;
  const startedAt = Date.now();
  const probeAt = startedAt + initialCheckpointProbeMs;
  let probed = !checkpoints;
  const keepAliveMs = checkpoints ? plan.checkpointProbeMs : undefined;
  let keepAliveAt = keepAliveMs === undefined ? Number.POSITIVE_INFINITY : startedAt + keepAliveMs;
  let lastElementAt = startedAt;
  let lastElementOffset = begin;
  let lastCheckpoint = 0;
  let position = begin;
  let i = source.indexAfter(begin);

  const emit = async (json: string, offset: number): Promise<boolean> => {
    guard.beforeElement();
    const r = sink.element(json, offset);
    if (r) await r;
    lastElementAt = Date.now();
    lastElementOffset = offset;
    return ++count >= plan.cap || signal.aborted;
  };

  for (;;) {
    if (signal.aborted) return count;
    const u = source.at(i);
    if (u !== undefined && (end === undefined || u.offset <= end)) {
      if (checkpoints) {
        const cp = ledger.checkpoint();
        if (cp.offset < u.offset && cp.offset > lastCheckpoint && cp.offset > lastElementOffset) {
          lastCheckpoint = cp.offset;
          if (await emit(source.checkpoint(cp), cp.offset)) return count;
        }
      }
      i++;
      position = u.offset;
      if (keepAliveMs !== undefined) keepAliveAt = Date.now() + keepAliveMs;
      const json = source.render(u);
      if (json !== undefined && (await emit(json, u.offset))) return count;
      if (++scanned % yieldEvery === 0) await nextTick();
      continue;
    }
    if (end !== undefined) return count;

    // Open-ended and caught up: the read has processed everything up to the ledger end (the offsets
    // after the last update belong to invisible events). Probe, check the idle deadline, or wait.
    position = Math.max(position, ledger.ledgerEnd());
    const deadline = lastElementAt + (plan.idleMs ?? Number.POSITIVE_INFINITY);
    let now = Date.now();
    const probeDue = (!probed && now >= probeAt) || now >= keepAliveAt;
    if (probeDue && now < deadline) {
      if (now >= probeAt) probed = true;
      if (keepAliveMs !== undefined && now >= keepAliveAt) keepAliveAt = now + keepAliveMs;
      const cp = ledger.checkpoint();
      const afterPrevious = count === 0 ? cp.offset >= begin : cp.offset > lastElementOffset;
      if (cp.offset > 0 && cp.offset === position && cp.offset > lastCheckpoint && afterPrevious) {
        lastCheckpoint = cp.offset;
        if (await emit(source.checkpoint(cp), cp.offset)) return count;
        continue;
      }
    }
    const idle = sink.idle();
    if (idle) await idle;
    if (source.at(i) !== undefined) continue;
    now = Date.now();
    if (now >= deadline) return count;
    const wakeAt = Math.min(deadline, probed ? keepAliveAt : probeAt, keepAliveAt);
    await waitForAppend(ledger, wakeAt - now, signal);
  }
}
