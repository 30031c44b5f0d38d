/**
 * JSON documents as one newline-separated text, split again by `string_to_table(…, E'\n')`: much cheaper
 * for PostgreSQL than a `jsonb[]` literal, whose every quote must be escaped. Serialized JSON never holds
 * a raw newline; `null` becomes an empty line (read back with `NULLIF(…, '')`).
 */
export function jsonLines(values: readonly (string | null)[]): string {
  return values.map((v) => v ?? '').join('\n');
}
