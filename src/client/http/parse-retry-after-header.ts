/**
 * Reads an HTTP `Retry-After` header: delay-seconds (`"3"`) or an HTTP date. Returns the delay in ms
 * (a date in the past gives 0), or `undefined` when the header is absent or unreadable.
 *
 * @param value - the header value as undici reports it (a repeated header uses its first value).
 * @param now - the current time in ms since the epoch, for HTTP dates.
 */
export function parseRetryAfterHeader(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
