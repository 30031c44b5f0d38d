/**
 * Quotes a request value for an error message, shortened the way the server shortens values in its own
 * messages: at most 53 characters are shown as they are, a longer value as its first 50 and `...`.
 *
 * @param value - the value as the caller sent it.
 * @returns the value in single quotes; `''` for the empty string. Never throws.
 */
export function quoteValue(value: string): string {
  return `'${value.length > 53 ? `${value.slice(0, 50)}...` : value}'`;
}
