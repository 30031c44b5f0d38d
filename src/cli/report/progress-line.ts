import type { Writable } from 'node:stream';
import { formatProgress, type ProgressSnapshot } from './format-progress.js';

/** Options of {@link ProgressLine}. */
export interface ProgressLineOptions {
  /** The terminal to draw on (stderr). */
  readonly out: Writable;
  /** Reads the counters to show. */
  readonly read: () => Omit<ProgressSnapshot, 'rate'>;
  /** Redraw interval in ms. Default 500. */
  readonly intervalMs?: number;
  /** Clock in ms. Default `performance.now`. */
  readonly now?: () => number;
}

/**
 * A live progress line on a terminal: redrawn in place (`\r` + erase line) every `intervalMs` with
 * {@link formatProgress}, the rate computed over the last interval. `clear()` erases it (call before
 * writing other text to the same terminal; it is redrawn at the next tick); `stop()` erases it for good.
 */
export class ProgressLine {
  private readonly options: ProgressLineOptions;
  private readonly timer: ReturnType<typeof setInterval>;
  private lastCount = 0;
  private lastAt: number;
  private shown = false;

  constructor(options: ProgressLineOptions) {
    this.options = options;
    const now = options.now ?? (() => performance.now());
    this.lastAt = now();
    this.timer = setInterval(() => {
      const snapshot = options.read();
      const at = now();
      const rate = at > this.lastAt ? ((snapshot.count - this.lastCount) * 1000) / (at - this.lastAt) : 0;
      this.lastAt = at;
      this.lastCount = snapshot.count;
      options.out.write(`\r\x1b[2K${formatProgress({ ...snapshot, rate })}`);
      this.shown = true;
    }, options.intervalMs ?? 500);
    this.timer.unref();
  }

  /** Erases the line (it comes back at the next tick). */
  clear(): void {
    if (this.shown) this.options.out.write('\r\x1b[2K');
    this.shown = false;
  }

  /** Stops redrawing and erases the line. */
  stop(): void {
    clearInterval(this.timer);
    this.clear();
  }
}
