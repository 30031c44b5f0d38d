/** Seconds from 1970-01-01T00:00:00Z to 2000-01-01T00:00:00Z (PostgreSQL's epoch). */
const epochShift = 946_684_800;
const zero = 0x30;
const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** `x` rounded to the nearest integer, halves to even (C's `rint` in the default rounding mode). Pure. */
function rint(x: number): number {
  const floor = Math.floor(x);
  const rest = x - floor;
  if (rest < 0.5) return floor;
  if (rest > 0.5) return floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** Days from 1970-01-01 to the given day of the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`). Pure. */
function daysSince1970(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468;
}

/**
 * The value PostgreSQL's `timestamptz` input gives `text` (docs/ingest.md, "COPY's binary format"), as whole
 * seconds since 2000-01-01T00:00:00Z and the microseconds within that second (0 to 999,999), for the RFC 3339 form
 * the participant writes: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of any length, and `Z` or `±HH:MM`. The
 * fraction is rounded to microseconds as PostgreSQL rounds it (`strtod` of the fraction times 10^6, then `rint`:
 * halves to even). `undefined` for anything else, also for what PostgreSQL would accept or refuse in its own way
 * (another form, a leap second, hour 24, year 0, an offset beyond 15 hours, a day the month does not have): the
 * caller lets PostgreSQL read those. Pure.
 */
export function timestampMicros(text: string): { readonly seconds: number; readonly micros: number } | undefined {
  const n = text.length;
  if (n < 20 || text.charCodeAt(4) !== 0x2d || text.charCodeAt(7) !== 0x2d || text.charCodeAt(10) !== 0x54 || text.charCodeAt(13) !== 0x3a || text.charCodeAt(16) !== 0x3a) {
    return undefined;
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  // NaN (not digits) fails every comparison: declined
  if (!(year >= 1 && month >= 1 && month <= 12 && day >= 1 && hour <= 23 && minute <= 59 && second <= 59)) return undefined;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : (monthDays[month - 1] as number))) return undefined;
  let at = 19;
  let micros = 0;
  if (text.charCodeAt(at) === 0x2e) {
    const start = at++;
    while (at < n && isDigit(text.charCodeAt(at))) at++;
    if (at === start + 1) return undefined;
    micros = rint(Number(text.slice(start, at)) * 1_000_000);
  }
  let offset = 0;
  const zone = text.charCodeAt(at);
  if (zone === 0x5a) {
    if (at + 1 !== n) return undefined;
  } else if (zone === 0x2b || zone === 0x2d) {
    if (at + 6 !== n || text.charCodeAt(at + 3) !== 0x3a) return undefined;
    const offsetHours = digits(text, at + 1, 2);
    const offsetMinutes = digits(text, at + 4, 2);
    if (!(offsetHours <= 15 && offsetMinutes <= 59)) return undefined;
    offset = (offsetHours * 60 + offsetMinutes) * 60 * (zone === 0x2d ? -1 : 1);
  } else return undefined;
  let seconds = daysSince1970(year, month, day) * 86_400 + (hour * 60 + minute) * 60 + second - epochShift - offset;
  if (micros >= 1_000_000) {
    micros -= 1_000_000;
    seconds += 1;
  }
  return { seconds, micros };
}

const isDigit = (c: number): boolean => c >= zero && c <= zero + 9;

/** The number the `count` decimal digits of `text` at `at` write, or NaN. Pure. */
function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const c = text.charCodeAt(i);
    if (!isDigit(c)) return Number.NaN;
    value = value * 10 + c - zero;
  }
  return value;
}
