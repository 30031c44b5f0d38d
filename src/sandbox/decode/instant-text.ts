import type { InstantValue } from './parse-instant.js';

/** The proleptic Gregorian date of a day count from 1970-01-01 (H. Hinnant's `civil_from_days`). */
function civilOf(epochDay: number): { year: number; month: number; day: number } {
  const z = epochDay + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * Renders an instant the way `java.time.Instant.toString` does, which is how the server prints every
 * timestamp: ISO-8601 in UTC with `Z`, seconds always present, the fraction with 0, 3, 6 or 9 digits as
 * needed; years of 4 digits, with `+` above 9999 and `-` below 0 (`+12345-01-01T00:00:00Z`).
 */
export function instantText(instant: InstantValue): string {
  const { year, month, day } = civilOf(instant.epochDay);
  const absYear = String(Math.abs(year)).padStart(4, '0');
  const yearText = year < 0 ? `-${absYear}` : year > 9999 ? `+${absYear}` : absYear;
  const s = instant.secondOfDay;
  const time = `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
  const nanos = String(instant.nano).padStart(9, '0');
  const fraction = instant.nano === 0 ? '' : nanos.endsWith('000000') ? `.${nanos.slice(0, 3)}` : nanos.endsWith('000') ? `.${nanos.slice(0, 6)}` : `.${nanos}`;
  return `${yearText}-${two(month)}-${two(day)}T${time}${fraction}Z`;
}
