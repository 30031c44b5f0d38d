import type { Writable } from 'node:stream';
import type { HumanLoggerOptions } from '../log/create-human-logger.js';
import type { UpdateWriter } from '../output/update-writer.js';
import type { CliIo } from '../process/cli-io.js';
import type { StatusSurface } from '../report/status-surface.js';
import { colorSupport } from './color-support.js';
import { createPalette, type Palette } from './palette.js';
import type { PrettyRow } from './pretty-row.js';
import { PrettyWriter } from './pretty-writer.js';
import { RowRenderer } from './row-renderer.js';

/** What a command needs to show the human view (see {@link terminalView}). */
export interface TerminalView {
  /** Colours for stdout (the data) and stderr (logs, the status line). */
  readonly palette: Palette;
  readonly stderrPalette: Palette;
  /** Paints the parts of a human log line (for `createCommandLogger`). */
  readonly logPaint: HumanLoggerOptions['paint'];
  /** Styles the status line. */
  readonly statusStyle: (line: string) => string;
  /**
   * A writer of update rows to `stream`: stdout (`toStdout`; fitted to its width and coloured as it allows)
   * or a file (coloured only under `FORCE_COLOR`).
   */
  updateWriter(stream: Writable, sync: () => Promise<void>, surface: StatusSurface | undefined, toStdout: boolean): UpdateWriter;
  /**
   * Draws rows for stdout as lines (without the newline): aligned across calls, fitted to stdout's width and
   * coloured as it allows (the rows of `acs` and `completions`).
   */
  rows(): (row: PrettyRow) => string;
}

/** Lines written to a file or a pipe are fitted to this width, or to `COLUMNS` when it is set. */
const defaultColumns = 160;

/**
 * The human view of a command, for `io`: the palettes follow `io.stdoutColors` / `io.stderrColors` (see
 * `colorSupport`: `NO_COLOR`, `FORCE_COLOR`, a terminal), rows are fitted to the terminal's width (read at
 * each line, so a resized window is followed) or, off a terminal, to `COLUMNS` or 160 columns.
 *
 * This module loads the terminal libraries (picocolors, string-width, cli-truncate): import it lazily, only
 * when the human view is shown, so `import 'ledger-rx'` and the NDJSON path never load them.
 */
export function terminalView(io: CliIo): TerminalView {
  const palette = createPalette(io.stdoutColors === true);
  const stderrPalette = createPalette(io.stderrColors === true);
  const fallback = Number(io.env['COLUMNS']);
  const offTerminal = Number.isSafeInteger(fallback) && fallback > 0 ? fallback : defaultColumns;
  const stdoutColumns = () => io.stdoutColumns?.() ?? offTerminal;
  return {
    palette,
    stderrPalette,
    logPaint: (style, text) => stderrPalette(style, text),
    statusStyle: (line) => stderrPalette('muted', line),
    updateWriter: (stream, sync, surface, toStdout) =>
      new PrettyWriter(stream, {
        palette: toStdout ? palette : createPalette(colorSupport({ isTTY: false, env: io.env })),
        columns: () => (toStdout ? stdoutColumns() : offTerminal),
        surface,
        sync,
      }),
    rows: () => {
      const renderer = new RowRenderer(palette, stdoutColumns);
      return (row) => renderer.render(row);
    },
  };
}
