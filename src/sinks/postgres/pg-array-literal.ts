/** Bytes of an array element that can go unquoted (no separator, brace, quote, backslash or whitespace). */
const bare = /^[A-Za-z0-9:_.@-]+$/;

/**
 * One element of a PostgreSQL array literal: bare when that is unambiguous (party and contract ids,
 * template ids, timestamps), else double-quoted with `"` and `\` escaped. `""` for the empty string and a
 * quoted `"NULL"` for the text NULL, which bare would mean a null element.
 */
function element(value: string): string {
  if (bare.test(value) && !(value.length === 4 && value.toUpperCase() === 'NULL')) return value;
  return `"${value.indexOf('"') < 0 && value.indexOf('\\') < 0 ? value : value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * The PostgreSQL array literal of a column of values (`{Alice::1220ab,"b \"c\"",NULL,42,true}`: `null` →
 * `NULL`, numbers and booleans as they print), passed as a text parameter to `unnest($n::bigint[], …)`, or,
 * nested, a ragged list of lists (party lists) passed as `$n::text[]` and cast back per row with `::text[]`
 * (multi-dimensional array parameters must be rectangular). It is what pg would build from a JavaScript
 * array, without quoting every element and escaping it with two regular expressions: a batch's columns are
 * mostly ids, numbers and timestamps that need neither.
 */
export function pgArrayLiteral(values: readonly (string | number | boolean | null)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    const v = values[i];
    out += v === null || v === undefined ? 'NULL' : typeof v === 'string' ? element(v) : String(v);
  }
  return `${out}}`;
}
