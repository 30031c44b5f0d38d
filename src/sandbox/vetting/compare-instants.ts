const instantPattern = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/;

function canonical(iso: string): string {
  const m = instantPattern.exec(iso);
  if (m) return `${m[1] as string}.${(m[2] ?? '').padEnd(9, '0')}`;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new RangeError(`not an ISO-8601 instant: ${iso}`);
  return canonical(new Date(ms).toISOString());
}

/**
 * Orders two ISO-8601 instants by time: negative when `a` is earlier, 0 when equal, positive when later.
 * Plain string comparison is wrong as soon as the fraction lengths differ (`…:00Z` sorts after
 * `…:00.5Z`), so UTC `…Z` instants are compared at nanosecond precision (9 fractional digits); any other
 * form `Date.parse` accepts (offsets) is compared at millisecond precision.
 *
 * @throws RangeError when either side is not a parsable instant.
 */
export function compareInstants(a: string, b: string): number {
  const x = canonical(a);
  const y = canonical(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
