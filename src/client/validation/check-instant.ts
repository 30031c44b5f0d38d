import { InvalidArgumentError } from '../../errors/index.js';

/** `Instant.parse` text: date, time, optional fraction, `Z` or an offset (case-insensitive, as ISO_INSTANT parses). */
const instant = /^([+-]\d{5,9}|\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2}(:\d{2})?)$/i;

/**
 * Requires an optional timestamp field to be an ISO-8601 instant the server can parse (`Instant.parse`):
 * `2026-06-30T10:15:30.123456Z`, with a real calendar date and time (no February 30, no hour 24). The
 * server answers anything else with the 400 decode failure, so the client rejects it before sending.
 *
 * @param value - the field's value; `null`/`undefined` (not set) pass.
 * @param field - the JSON path reported in the error.
 * @throws InvalidArgumentError(field, ...) for text that is not such an instant.
 */
export function checkInstant(value: string | null | undefined, field: string): void {
  if (value == null) return;
  const m = instant.exec(value);
  if (m) {
    const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
    const d = new Date(0);
    d.setUTCFullYear(year, month - 1, day);
    const dateOk = d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
    if (dateOk && hour <= 23 && minute <= 59 && second <= 60) return;
  }
  throw new InvalidArgumentError(field, `'${value}' is not an ISO-8601 instant such as 2026-06-30T10:15:30Z`);
}
