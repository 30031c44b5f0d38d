import { clearLine, cursorTo } from 'node:readline';
import type { Writable } from 'node:stream';
import { formatProgress, type ProgressSnapshot } from './format-progress.js';
import type { StatusSurface } from './status-surface.js';

/** Options of {@link ProgressLine}. */
export interface ProgressLineOptions {
  /** The terminal to draw on (stderr). */
  readonly out: Writable;
  /** Reads the counters to show. */
  readonly read: () => Omit<ProgressSnapshot, 'rate'>;
  /** Redraw interval in ms. Default 500. */
  readonly intervalMs?: number;
  /** Delay of a `redrawSoon()` in ms. Default 50. */
  readonly soonMs?: number;
  /** The terminal's width: a longer line is cut, since a wrapped line could not be erased. */
  readonly columns?: () => number | undefined;
  /** Styles the line (e.g. dim on a colour terminal). Default: as it is. */
  readonly style?: (line: string) => string;
  /** Clock in ms. Default `performance.now`. */
  readonly now?: () => number;
}

/**
 * A live progress line on a terminal: redrawn in place every `intervalMs` with {@link formatProgress}
 * (the cursor back to the line's start and the line erased by `node:readline`), the rate computed over the
 * last interval. `clear()` erases it (call before writing other text to the same terminal); it is redrawn
 * at the next tick, or `soonMs` after `redrawSoon()`; `stop()` erases it for good. The line never ends
 * with a newline, so whatever is written after `clear()` starts at the line's beginning.
 */
export class ProgressLine implements StatusSurface {
  private readonly options: ProgressLineOptions;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly now: () => number;
  private soon: ReturnType<typeof setTimeout> | undefined;
  private lastCount = 0;
  private lastAt: number;
  private rate = 0;
  private shown = false;
  private stopped = false;

  constructor(options: ProgressLineOptions) {
    this.options = options;
    this.now = options.now ?? (() => performance.now());
    this.lastAt = this.now();
    this.timer = setInterval(() => this.tick(), options.intervalMs ?? 500);
    this.timer.unref();
  }

  /** Erases the line (it comes back at the next tick or `redrawSoon`). */
  clear(): void {
    if (this.shown) {
      cursorTo(this.options.out, 0);
      clearLine(this.options.out, 0);
    }
    this.shown = false;
  }

  /** Draws the line again in `soonMs` (with the rate of the last tick), unless a redraw is due already. */
  redrawSoon(): void {
    if (this.soon !== undefined || this.stopped) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      if (!this.stopped) this.draw();
    }, this.options.soonMs ?? 50);
    this.soon.unref();
  }

  /** Stops redrawing and erases the line. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    if (this.soon !== undefined) clearTimeout(this.soon);
    this.clear();
  }

  private tick(): void {
    const count = this.options.read().count;
    const at = this.now();
    this.rate = at > this.lastAt ? ((count - this.lastCount) * 1000) / (at - this.lastAt) : 0;
    this.lastAt = at;
    this.lastCount = count;
    this.draw();
  }

  private draw(): void {
    const full = formatProgress({ ...this.options.read(), rate: this.rate }); // one column per character
    const columns = this.options.columns?.();
    const line = columns !== undefined && columns > 1 && full.length >= columns ? full.slice(0, columns - 1) : full;
    this.clear();
    this.options.out.write(this.options.style ? this.options.style(line) : line);
    this.shown = true;
  }
}
