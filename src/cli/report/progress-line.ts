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
  /**
   * The terminal's height, when known: the line is then pinned to the bottom row (see {@link ProgressLine}).
   * Absent or under 3: drawn in place at the cursor, erased before other output.
   */
  readonly rows?: () => number | undefined;
  /** Styles the line (e.g. dim on a colour terminal). Default: as it is. */
  readonly style?: (line: string) => string;
  /** Clock in ms. Default `performance.now`. */
  readonly now?: () => number;
}

const esc = '\u001b';
/** DECSC / DECRC: save and restore the cursor (and its attributes). */
const saveCursor = `${esc}7`;
const restoreCursor = `${esc}8`;

/**
 * A live progress line on a terminal, redrawn every `intervalMs` with {@link formatProgress}, the rate
 * computed over the last interval.
 *
 * With the terminal's height (`rows`), it has a line of its own: the bottom row is taken out of the
 * scrolling region (DECSTBM `ESC[1;<rows-1>r`), so rows and log lines written to the same terminal scroll
 * above it and never touch it; each redraw saves the cursor, draws on the bottom row and restores the
 * cursor, so it is always on screen and never drawn between the data. `clear()` and `redrawSoon()` have
 * nothing to do; a resized terminal gets its region set again at the next redraw; `stop()` gives the
 * whole screen back to scrolling and erases the line.
 *
 * Without `rows`, it is drawn in place at the cursor (the cursor back to the line's start and the line
 * erased by `node:readline`): `clear()` erases it (call before writing other text to the same terminal);
 * it is redrawn at the next tick, or `soonMs` after `redrawSoon()`; `stop()` erases it for good. The line
 * never ends with a newline, so whatever is written after `clear()` starts at the line's beginning.
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
  /** The height the scrolling region was set for (pinned mode), `undefined` before the first draw. */
  private pinnedRows: number | undefined;
  /** Gives the screen back if the process exits without `stop()` (a second signal's forced exit). */
  private readonly onExit = () => this.stop();

  constructor(options: ProgressLineOptions) {
    this.options = options;
    this.now = options.now ?? (() => performance.now());
    this.lastAt = this.now();
    this.timer = setInterval(() => this.tick(), options.intervalMs ?? 500);
    this.timer.unref();
  }

  /** The terminal's height when the line is pinned to the bottom row, else `undefined`. */
  private pinnable(): number | undefined {
    const rows = this.options.rows?.();
    return rows !== undefined && Number.isSafeInteger(rows) && rows >= 3 ? rows : undefined;
  }

  /** Erases the line (it comes back at the next tick or `redrawSoon`); nothing to do when pinned. */
  clear(): void {
    if (this.pinnedRows !== undefined) return;
    if (this.shown) {
      cursorTo(this.options.out, 0);
      clearLine(this.options.out, 0);
    }
    this.shown = false;
  }

  /** Draws the line again in `soonMs` (with the rate of the last tick), unless a redraw is due already. */
  redrawSoon(): void {
    if (this.soon !== undefined || this.stopped || this.pinnedRows !== undefined) return;
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
    process.off('exit', this.onExit);
    if (this.pinnedRows !== undefined) {
      // the whole screen scrolls again; the bottom row erased
      this.options.out.write(`${saveCursor}${esc}[r${esc}[${this.pinnedRows};1H${esc}[2K${restoreCursor}`);
      this.pinnedRows = undefined;
      return;
    }
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
    const styled = this.options.style ? this.options.style(line) : line;
    const rows = this.pinnable();
    if (rows !== undefined) {
      let setup = '';
      if (this.pinnedRows === undefined) process.once('exit', this.onExit);
      if (this.pinnedRows !== rows) {
        // a line below the cursor (scrolling once if it is on the bottom row), then the region above the bottom row
        setup = `\n${esc}[1A${saveCursor}${esc}[1;${rows - 1}r${restoreCursor}`;
        this.pinnedRows = rows;
      }
      this.options.out.write(`${setup}${saveCursor}${esc}[${rows};1H${esc}[2K${styled}${restoreCursor}`);
      return;
    }
    this.clear();
    this.options.out.write(styled);
    this.shown = true;
  }
}
