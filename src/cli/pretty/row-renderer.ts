import cliTruncate from 'cli-truncate';
import stringWidth from 'string-width';
import type { Palette } from './palette.js';
import type { PrettyRow, PrettySpan } from './pretty-row.js';

/** The width each shrinkable span gets (a pure function, water-filling: small spans keep their width). */
function shareWidths(widths: readonly number[], budget: number): number[] {
  const given = widths.map(() => 0);
  const order = widths.map((w, i) => [w, i] as const).sort((a, b) => a[0] - b[0]);
  let left = Math.max(0, budget);
  order.forEach(([width, index], n) => {
    const share = Math.floor(left / (order.length - n));
    const take = Math.min(width, share);
    given[index] = take;
    left -= take;
  });
  return given;
}

/**
 * Draws {@link PrettyRow}s as terminal lines (without the newline), fitted to `columns()` (read at each
 * row, so a resized terminal is followed):
 *
 * - each cell column is as wide as its widest cell so far (at least the cell's `minWidth`, at most its
 *   `maxWidth`), so rows line up, and columns are separated by two spaces;
 * - the spans follow; when they do not fit, the shrinkable ones give up width tier by tier (see
 *   `PrettySpan.shrink`; each cut with `…`, at least 8 columns each), and a line still too wide is cut at
 *   the terminal's edge with `…`;
 * - widths are display widths (`string-width`: wide and combining characters), cuts never split a
 *   character (`cli-truncate`); colours come from `palette` after the layout, so escape codes never count.
 */
export class RowRenderer {
  private readonly widths: number[] = [];

  constructor(
    private readonly palette: Palette,
    private readonly columns: () => number,
  ) {}

  /** The row as one line of at most `columns()` display columns. */
  render(row: PrettyRow): string {
    const total = Math.max(20, this.columns());
    const parts: string[] = [];
    let used = 0;
    row.cells.forEach((cell, i) => {
      let text = cell.text;
      let width = stringWidth(text);
      if (cell.maxWidth !== undefined && width > cell.maxWidth) {
        text = cliTruncate(text, cell.maxWidth);
        width = stringWidth(text);
      }
      const column = Math.max(this.widths[i] ?? 0, width, cell.minWidth ?? 0);
      this.widths[i] = column;
      const pad = ' '.repeat(column - width);
      parts.push((i > 0 ? '  ' : '') + (cell.align === 'right' ? pad + this.palette(cell.style, text) : this.palette(cell.style, text) + pad));
      used += column + (i > 0 ? 2 : 0);
    });
    if (row.spans.length > 0) {
      const lead = row.cells.length > 0 ? 2 : 0;
      const spans = this.fit(row.spans, total - used - lead);
      let line = spans.map((s) => s.text).join('');
      if (stringWidth(line) > total - used - lead) line = cliTruncate(line, Math.max(1, total - used - lead));
      parts.push(' '.repeat(lead) + this.colour(spans, line));
    }
    const out = parts.join('');
    return row.muted ? this.palette('muted', out) : out;
  }

  /**
   * The spans, shortened until the whole fits `budget` columns: first tier by tier (highest `shrink`
   * first) to their `short` forms, then, if that is not enough, cut tier by tier, the spans of a tier
   * sharing what the others leave (at least 8 columns each).
   */
  private fit(spans: readonly PrettySpan[], budget: number): PrettySpan[] {
    const out = [...spans];
    const widths = out.map((s) => stringWidth(s.text));
    const total = () => widths.reduce((a, b) => a + b, 0);
    const tiers = [...new Set(out.flatMap((s) => (s.shrink === undefined ? [] : [s.shrink])))].sort((a, b) => b - a);
    const membersOf = (tier: number) => out.flatMap((s, i) => (s.shrink === tier ? [i] : []));
    for (const tier of tiers) {
      if (total() <= budget) return out;
      for (const i of membersOf(tier)) {
        const span = out[i] as PrettySpan;
        if (span.short === undefined) continue;
        out[i] = { ...span, text: span.short };
        widths[i] = stringWidth(span.short);
      }
    }
    for (const tier of tiers) {
      if (total() <= budget) return out;
      const members = membersOf(tier);
      const others = total() - members.reduce((a, i) => a + (widths[i] as number), 0);
      const shares = shareWidths(members.map((i) => widths[i] as number), Math.max(budget - others, members.length * 8));
      members.forEach((i, k) => {
        const share = shares[k] as number;
        const span = out[i] as PrettySpan;
        if (share >= (widths[i] as number)) return;
        out[i] = { ...span, text: cliTruncate(span.text, Math.max(1, share)) };
        widths[i] = stringWidth((out[i] as PrettySpan).text);
      });
    }
    return out;
  }

  /** Colours the (possibly cut) `line` span by span: the spans' texts are its prefix pieces. */
  private colour(spans: readonly PrettySpan[], line: string): string {
    let rest = line;
    let out = '';
    for (const s of spans) {
      if (rest === '') break;
      const piece = rest.startsWith(s.text) ? s.text : rest; // the span the line was cut in takes the rest
      out += this.palette(s.style, piece);
      rest = rest.slice(piece.length);
    }
    return out + rest;
  }
}
