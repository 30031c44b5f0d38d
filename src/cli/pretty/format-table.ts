import cliTruncate from 'cli-truncate';
import stringWidth from 'string-width';
import type { Palette } from './palette.js';

/** A cell's text: `null` for SQL NULL, instants in ISO form, structures as JSON, line breaks escaped. */
function cellText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return String(value).replace(/\r?\n/g, '\\n');
}

/**
 * A query result as an aligned text table, as psql draws one: a header, a rule, one line per row (numbers
 * right-aligned), and `(N rows)`. With `columns` (a terminal's width), wide columns are narrowed — the
 * widest first, never below 8 — and their cells cut with `…`, so no line is wider than the terminal;
 * without it nothing is cut. SQL NULL shows as a muted `null`. Returns the lines, without newlines.
 */
export function formatTable(fields: readonly string[], rows: readonly Readonly<Record<string, unknown>>[], palette: Palette, columns?: number): string[] {
  const cells = rows.map((row) => fields.map((f) => cellText(row[f])));
  const numeric = fields.map((_, i) => cells.length > 0 && cells.every((r) => r[i] === null || /^-?\d+(\.\d+)?$/.test(r[i] as string)));
  const widths = fields.map((f, i) => Math.max(stringWidth(f), ...cells.map((r) => stringWidth(r[i] ?? 'null'))));
  if (columns !== undefined) {
    const budget = columns - 3 * Math.max(0, fields.length - 1);
    while (widths.reduce((a, b) => a + b, 0) > budget) {
      const widest = widths.indexOf(Math.max(...widths));
      if ((widths[widest] as number) <= 8) break;
      widths[widest] = (widths[widest] as number) - 1;
    }
  }
  const fit = (text: string, i: number) => {
    const width = widths[i] as number;
    const cut = stringWidth(text) > width ? cliTruncate(text, width) : text;
    const pad = ' '.repeat(Math.max(0, width - stringWidth(cut)));
    return { cut, pad };
  };
  const line = (parts: string[]) => parts.join(palette('separator', ' │ '));
  const header = line(fields.map((f, i) => {
    const { cut, pad } = fit(f, i);
    return palette('template', cut) + pad;
  }));
  const rule = palette('separator', widths.map((w) => '─'.repeat(w)).join('─┼─'));
  const body = cells.map((r) =>
    line(r.map((value, i) => {
      const { cut, pad } = fit(value ?? 'null', i);
      const text = value === null ? palette('muted', cut) : cut;
      return numeric[i] ? pad + text : text + pad;
    })),
  );
  return [header, rule, ...body, palette('muted', `(${rows.length} ${rows.length === 1 ? 'row' : 'rows'})`)];
}
