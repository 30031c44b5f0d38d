import type { Writable } from 'node:stream';
import type { JsGetUpdatesResponse } from '../../schemas/updates.js';
import { LineWriter } from '../output/line-writer.js';
import type { UpdateWriter } from '../output/update-writer.js';
import type { StatusSurface } from '../report/status-surface.js';
import type { Palette } from './palette.js';
import { RowRenderer } from './row-renderer.js';
import { updateRow } from './update-row.js';

/** Options of {@link PrettyWriter}. */
export interface PrettyWriterOptions {
  readonly palette: Palette;
  /** The width to fit each line into (the terminal's, read at each line). */
  readonly columns: () => number;
  /** A status line on the same terminal: erased before each write, redrawn after. */
  readonly surface?: StatusSurface | undefined;
  /** Makes what was written durable (a file's fsync). Default: nothing to do. */
  readonly sync?: () => Promise<void>;
}

/**
 * Writes update elements as the human view: one line per update (see `updateRow`), aligned and fitted to
 * the terminal by a {@link RowRenderer}, coloured by `palette`; a muted `── YYYY-MM-DD (UTC) ──` line
 * before the first update of each day. An `OffsetCheckpoint` handed to it is drawn muted (`tail` hands
 * them over only with `--checkpoints`).
 *
 * The writing contract is `UpdateWriter`'s (backpressure, `flush`, the first error kept, through a
 * {@link LineWriter}); `count` is the number of updates, `bytes` what was written, date lines included.
 */
export class PrettyWriter implements UpdateWriter {
  private readonly lines: LineWriter;
  private readonly renderer: RowRenderer;
  private updates = 0;
  private lastDate = '';

  constructor(
    stream: Writable,
    private readonly options: PrettyWriterOptions,
  ) {
    this.lines = new LineWriter(stream, options.sync);
    this.renderer = new RowRenderer(options.palette, options.columns);
  }

  get count(): number {
    return this.updates;
  }

  get bytes(): number {
    return this.lines.bytes;
  }

  get error(): Error | undefined {
    return this.lines.error;
  }

  write(element: JsGetUpdatesResponse): boolean {
    const { row, date } = updateRow(element);
    let text = '';
    if (date !== '' && date !== this.lastDate) {
      text += `${this.options.palette('muted', `── ${date} (UTC) ──`)}\n`;
      this.lastDate = date;
    }
    text += `${this.renderer.render(row)}\n`;
    this.options.surface?.clear();
    const ready = this.lines.writeLine(text);
    this.updates++;
    this.options.surface?.redrawSoon();
    return ready;
  }

  drained(): Promise<void> {
    return this.lines.drained();
  }

  flush(): Promise<void> {
    return this.lines.flush();
  }
}
