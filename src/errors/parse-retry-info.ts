const units: Readonly<Record<string, number>> = {
  d: 86_400_000, day: 86_400_000, days: 86_400_000,
  h: 3_600_000, hour: 3_600_000, hours: 3_600_000,
  m: 60_000, min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000,
  s: 1000, sec: 1000, secs: 1000, second: 1000, seconds: 1000,
  ms: 1, milli: 1, millis: 1, millisecond: 1, milliseconds: 1,
  us: 0.001, µs: 0.001, micro: 0.001, micros: 0.001, microsecond: 0.001, microseconds: 0.001,
  ns: 0.000001, nano: 0.000001, nanos: 0.000001, nanosecond: 0.000001, nanoseconds: 0.000001,
};

/**
 * Parses the Scala duration text of a Canton `retryInfo` (`"1 second"`, `"500 milliseconds"`,
 * `"2.5 s"`) into milliseconds. Returns `undefined` for `null`, an empty string, or text it cannot read.
 */
export function parseRetryInfo(text: string | null | undefined): number | undefined {
  if (text == null) return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Zµ]+)\s*$/.exec(text);
  if (!match) return undefined;
  const factor = units[(match[2] ?? '').toLowerCase()];
  if (factor === undefined) return undefined;
  return Math.round(Number(match[1]) * factor);
}
