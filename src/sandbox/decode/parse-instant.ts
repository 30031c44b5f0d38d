/** An instant as `java.time.Instant` holds it, split so that every part is an exact JS number. */
export interface InstantValue {
  /** Days since 1970-01-01 (negative before). */
  readonly epochDay: number;
  /** Seconds since midnight UTC, 0–86 399. */
  readonly secondOfDay: number;
  /** 0–999 999 999. */
  readonly nano: number;
}

// Year: 4 digits unsigned, or signed ("+" only with more than 4 digits), as ISO_LOCAL_DATE's
// `appendValue(YEAR, 4, 10, EXCEEDS_PAD)` parses strictly; then the time, a fraction of 0–9 digits after
// the point (`appendFraction(NANO_OF_SECOND, 0, 9, true)`: a bare `.` is read as 0) and `Z` or an offset
// `±HH:MM[:SS]`. Case-insensitive, as ISO_INSTANT is.
const pattern = /^(\d{4}|-\d{4,10}|\+\d{5,10})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{0,9}))?(?:Z|([+-])(\d{2}):(\d{2})(?::(\d{2}))?)$/i;

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `days_from_civil`). */
function epochDayOf(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** `Instant.MIN` (-1000000000-01-01T00:00Z) and `Instant.MAX` (1000000000-12-31T23:59:59.999999999Z). */
const minEpochDay = epochDayOf(-1_000_000_000, 1, 1);
const maxEpochDay = epochDayOf(1_000_000_000, 12, 31);

/**
 * Parses text the way the server's `java.time.Instant.parse` (JDK 17+, `DateTimeFormatter.ISO_INSTANT`)
 * does, and converts it to UTC:
 *
 * - `<date>T<hh>:<mm>:<ss>[.<fraction>](Z|±HH:MM[:SS])`, letters in any case (`t`, `z`); seconds are
 *   required; the fraction has 0–9 digits (`10:15:30.Z` is `10:15:30Z`);
 * - the year has 4 digits, or a sign and 4–10 digits (`+` only beyond 4 digits, no `-0000`);
 * - a real calendar date; hours 0–23, minutes and seconds 0–59, except a leap second: `23:59:60` (local
 *   time, before the offset) is read as `23:59:59`, as `ISO_INSTANT` does; and `24:00:00` with a zero
 *   fraction (`T24:00:00Z`, `T24:00:00.000+01:00`), read as midnight of the next day;
 * - an offset's hours at most 23, minutes and seconds at most 59, and the offset at most ±18:00;
 * - the result within `Instant.MIN`..`Instant.MAX` (years ±1 000 000 000).
 *
 * Checked against `Instant.parse` of JDK 17 and 25, which agree (ledger-rx's client check, `checkInstant`,
 * accepts the same texts).
 *
 * @returns the instant in UTC, or `undefined` for text `Instant.parse` refuses.
 */
export function parseInstant(text: string): InstantValue | undefined {
  const m = pattern.exec(text);
  if (!m) return undefined;
  const [, yearText, monthText, dayText, hourText, minuteText, secondText, fraction, sign, offsetHours, offsetMinutes, offsetSeconds] = m as unknown as (string | undefined)[];
  if (/^-0+$/.test(yearText as string)) return undefined;
  const year = Number(yearText);
  const month = Number(monthText);
  const day = Number(dayText);
  const minute = Number(minuteText);
  let second = Number(secondText);
  const nano = Number((fraction ?? '').padEnd(9, '0'));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  const hour = Number(hourText);
  if (hour === 23 && minute === 59 && second === 60) second = 59;
  // 24:00:00 with a zero fraction is midnight of the next day (ISO-8601's end of day, as Java reads it)
  const endOfDay = hour === 24 && minute === 0 && second === 0 && nano === 0;
  if ((hour > 23 && !endOfDay) || minute > 59 || second > 59) return undefined;
  let offset = 0;
  if (sign !== undefined) {
    const oh = Number(offsetHours);
    const om = Number(offsetMinutes);
    const os = Number(offsetSeconds ?? '0');
    if (om > 59 || os > 59) return undefined;
    offset = oh * 3600 + om * 60 + os;
    if (offset > 18 * 3600) return undefined;
    if (sign === '-') offset = -offset;
  }
  let epochDay = epochDayOf(year, month, day);
  let secondOfDay = hour * 3600 + minute * 60 + second - offset;
  if (secondOfDay < 0) {
    secondOfDay += 86_400;
    epochDay -= 1;
  } else if (secondOfDay >= 86_400) {
    secondOfDay -= 86_400;
    epochDay += 1;
  }
  if (epochDay < minEpochDay || epochDay > maxEpochDay) return undefined;
  return { epochDay, secondOfDay, nano };
}
