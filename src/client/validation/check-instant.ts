import { InvalidArgumentError } from '../../errors/index.js';

/**
 * `Instant.parse` text (`DateTimeFormatter.ISO_INSTANT`, case-insensitive): a year of 4 digits, or `-` and
 * 4–10 digits, or `+` and 5–10 digits; month, day, hour, minute and second of 2 digits; a fraction of 0–9
 * digits after an optional point; `Z` or an offset `±HH:MM[:SS]`.
 */
const instant = /^(\d{4}|-\d{4,10}|\+\d{5,10})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{0,9}))?(?:Z|([+-])(\d{2}):(\d{2})(?::(\d{2}))?)$/i;

/** Days from 1970-01-01 to a proleptic Gregorian date, exact for any year `Instant` can hold. */
function epochDay(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The days of `Instant.MIN` (-1000000000-01-01T00:00Z) and `Instant.MAX` (+1000000000-12-31T23:59:59.999999999Z). */
const minDay = epochDay(-1_000_000_000, 1, 1);
const maxDay = epochDay(1_000_000_000, 12, 31);

/** True when `Instant.parse` (JDK 17+) accepts `text`. */
function isInstant(text: string): boolean {
  const m = instant.exec(text);
  if (!m) return false;
  const [yearText, monthText, dayText, hourText, minuteText, secondText, fraction, sign, offsetHours, offsetMinutes, offsetSeconds] = m.slice(1);
  if (/^-0+$/.test(yearText ?? '')) return false; // strict parsing refuses a negative zero year
  const [year, month, day, hour, minute] = [yearText, monthText, dayText, hourText, minuteText].map(Number) as [number, number, number, number, number];
  let second = Number(secondText);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (hour === 23 && minute === 59 && second === 60) second = 59; // the only leap second Java reads
  // 24:00:00 with a zero fraction is midnight of the next day (ISO-8601's end of day, as Java reads it)
  const endOfDay = hour === 24 && minute === 0 && second === 0 && /^0*$/.test(fraction ?? '');
  if ((hour > 23 && !endOfDay) || minute > 59 || second > 59) return false;
  let offset = 0;
  if (sign !== undefined) {
    const [h, mi, s] = [offsetHours, offsetMinutes, offsetSeconds ?? '0'].map(Number) as [number, number, number];
    if (mi > 59 || s > 59) return false;
    offset = h * 3600 + mi * 60 + s;
    if (offset > 18 * 3600) return false; // ZoneOffset's range
    if (sign === '-') offset = -offset;
  }
  // Day and second of day kept apart: seconds since the epoch would pass 2^53 near the range ends.
  const secondOfDay = hour * 3600 + minute * 60 + second - offset;
  const dayInUtc = epochDay(year, month, day) + Math.floor(secondOfDay / 86_400);
  return dayInUtc >= minDay && dayInUtc <= maxDay;
}

/**
 * Requires an optional timestamp field to be text the server's `Instant.parse` (JDK 17+,
 * `DateTimeFormatter.ISO_INSTANT`) accepts, and nothing else — the server answers anything else with the
 * 400 decode failure, so the client rejects it before sending:
 *
 * - `<date>T<hh>:<mm>:<ss>[.<fraction>](Z|±HH:MM[:SS])`, letters in any case; seconds required; a fraction
 *   of 0–9 digits (`10:15:30.Z` is accepted, as Java reads it);
 * - the year: 4 digits, or `-` and 4–10 digits (not `-0000`), or `+` and 5–10 digits;
 * - a real calendar date; hours 0–23, minutes and seconds 0–59, except the leap second `23:59:60` (local
 *   time, before the offset) — a `:60` at any other time is refused — and `24:00:00` with a zero fraction,
 *   midnight of the next day;
 * - an offset of at most ±18:00 (its minutes and seconds at most 59);
 * - the instant between `Instant.MIN` (-1000000000-01-01T00:00Z) and `Instant.MAX`
 *   (+1000000000-12-31T23:59:59.999999999Z).
 *
 * E.g. `2026-06-30T10:15:30.123456Z`, `2026-06-30T12:15:30+02:00`, `2026-06-30T24:00:00Z` (= July 1st,
 * 00:00).
 *
 * @param value - the field's value; `null`/`undefined` (not set) pass.
 * @param field - the JSON path reported in the error.
 * @throws InvalidArgumentError(field, ...) for text that is not such an instant.
 */
export function checkInstant(value: string | null | undefined, field: string): void {
  if (value == null || isInstant(value)) return;
  throw new InvalidArgumentError(field, `'${value}' is not an ISO-8601 instant such as 2026-06-30T10:15:30Z`);
}
