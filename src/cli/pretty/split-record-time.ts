const iso = /^(\d{4,}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?/;

/**
 * The date and the time of day of an RFC 3339 timestamp as the participant writes them (UTC, `Z`), read
 * from the text itself (no `Date`: microseconds and years past 9999 are kept as written): `date` as
 * `YYYY-MM-DD`, `time` as `HH:MM:SS.mmm` (milliseconds, cut, never rounded). A text that is not such a
 * timestamp gives `{date: '', time: text}`.
 */
export function splitRecordTime(timestamp: string): { readonly date: string; readonly time: string } {
  const match = iso.exec(timestamp);
  if (!match) return { date: '', time: timestamp };
  const millis = (match[3] ?? '').slice(0, 3).padEnd(3, '0');
  return { date: match[1] as string, time: `${match[2] as string}.${millis}` };
}
