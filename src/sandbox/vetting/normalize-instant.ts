const instantPattern = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/;

/**
 * Renders an ISO-8601 UTC instant the way the server prints timestamps (`java.time.Instant.toString`):
 * no fraction when it is zero, else 3, 6 or 9 fractional digits — `2026-08-01T00:00:00.5Z` becomes
 * `2026-08-01T00:00:00.500Z`. The input must already have passed the request decoder's `timestamp` check;
 * anything else is returned unchanged.
 */
export function normalizeInstant(iso: string): string {
  const m = instantPattern.exec(iso);
  if (!m) return iso;
  const seconds = m[1] as string;
  const nanos = (m[2] ?? '').padEnd(9, '0');
  if (/^0+$/.test(nanos)) return `${seconds}Z`;
  if (nanos.endsWith('000000')) return `${seconds}.${nanos.slice(0, 3)}Z`;
  if (nanos.endsWith('000')) return `${seconds}.${nanos.slice(0, 6)}Z`;
  return `${seconds}.${nanos}Z`;
}
