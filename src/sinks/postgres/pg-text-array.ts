/**
 * The PostgreSQL array literal of a list of strings (`{"a","b \"c\""}`), for passing a ragged list of
 * lists through `unnest($n::text[])` and casting each element back with `::text[]` (multi-dimensional
 * array parameters must be rectangular, party lists are not).
 */
export function pgTextArray(values: readonly string[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    out += `"${(values[i] as string).replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  }
  return `${out}}`;
}
