import type { StyleName } from './style-name.js';

/** A fixed column of a {@link PrettyRow}: aligned under the same column of the rows before it. */
export interface PrettyCell {
  readonly text: string;
  readonly style?: StyleName;
  /** Default `left`; numbers read best `right`. */
  readonly align?: 'left' | 'right';
  /** The column is at least this wide from the first row on (so early rows line up with later, longer ones). */
  readonly minWidth?: number;
  /** The column never grows wider than this (longer text is cut with `…`). Default: unbounded. */
  readonly maxWidth?: number;
}

/** A piece of the free part of a {@link PrettyRow}, after the columns. */
export interface PrettySpan {
  readonly text: string;
  readonly style?: StyleName;
  /**
   * May be shortened (with `…`) to fit the terminal, and in which order: spans of the highest `shrink`
   * give up width first (parties: 3), then the next (arguments, ids: 2; templates: 1), each tier sharing
   * the width the others leave so every span keeps a readable start. Absent: never shortened (the line as
   * a whole is still cut at the terminal's edge).
   */
  readonly shrink?: number;
  /** A shorter form of `text` to use first when the span must shrink (`Iou:Iou` for a template, `Alice` for a party). */
  readonly short?: string;
}

/**
 * One line of the human view, independent of colours and width: aligned `cells`, then `spans` filling
 * the rest of the line. `muted` draws the whole line dim (a checkpoint, a note). `acs` and `completions`
 * build their rows the same way and hand them to the same `RowRenderer`.
 */
export interface PrettyRow {
  readonly cells: readonly PrettyCell[];
  readonly spans: readonly PrettySpan[];
  readonly muted?: boolean;
}
