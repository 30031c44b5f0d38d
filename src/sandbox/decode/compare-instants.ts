import { parseInstant, type InstantValue } from './parse-instant.js';

function parsed(iso: string): InstantValue {
  const instant = parseInstant(iso);
  if (!instant) throw new RangeError(`not an ISO-8601 instant: ${iso}`);
  return instant;
}

/**
 * Orders two ISO-8601 instants by time, at nanosecond precision: negative when `a` is earlier, 0 when
 * equal, positive when later. Plain string comparison is wrong as soon as the fraction lengths, the
 * offsets or the year widths differ (`…:00Z` sorts after `…:00.5Z`), so both sides are parsed as
 * `Instant.parse` reads them ({@link parseInstant}: any offset, years beyond 9999).
 *
 * @throws RangeError when either side is not such an instant.
 */
export function compareInstants(a: string, b: string): number {
  const x = parsed(a);
  const y = parsed(b);
  return Math.sign(x.epochDay - y.epochDay || x.secondOfDay - y.secondOfDay || x.nano - y.nano);
}
