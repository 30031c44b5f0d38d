let lastSecond = Number.NaN;
let secondPrefix = '';
let lastMs = Number.NaN;
let lastText = '';

/**
 * Formats epoch milliseconds the way `java.time.Instant.toString` does, which is how the server prints
 * every timestamp: ISO-8601 in UTC with `Z`, and fractional seconds only when they are not zero
 * (`2026-06-30T10:15:30Z`, `2026-06-30T10:15:30.123Z`). Caches the last instant and the last second's
 * prefix: consecutive calls mostly format the same or nearby instants.
 */
export function formatInstant(ms: number): string {
  if (ms === lastMs) return lastText;
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    secondPrefix = new Date(second * 1000).toISOString().slice(0, 19);
    lastSecond = second;
  }
  const fraction = ms - second * 1000;
  lastMs = ms;
  lastText = fraction === 0 ? `${secondPrefix}Z` : `${secondPrefix}.${fraction < 10 ? '00' : fraction < 100 ? '0' : ''}${fraction}Z`;
  return lastText;
}
