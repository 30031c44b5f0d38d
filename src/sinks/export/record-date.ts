const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Microseconds since the epoch (UTC) of a timestamp as the JSON Ledger API writes it (RFC 3339, e.g.
 * `2026-11-27T16:22:44.123456Z`), exactly: the fraction is read as digits, not through a float, and digits
 * below the microsecond (the participant sends none) are truncated. `undefined` for anything else.
 */
export function timestampMicros(text: string | null | undefined): bigint | undefined {
  if (typeof text !== 'string') return undefined;
  const m = rfc3339.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac = '', zone = 'Z'] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (!Number.isFinite(ms)) return undefined;
  let micros = BigInt(ms) * 1000n + BigInt((frac + '000000').slice(0, 6));
  if (zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1n : 1n;
    const minutes = BigInt(Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
    micros -= sign * minutes * 60_000_000n;
  }
  return micros;
}

/** The UTC date (`YYYY-MM-DD`) of a timestamp in microseconds: the `record_date` partition of a row. */
export function utcDate(micros: bigint): string {
  return new Date(Number(micros / 1000n - (micros % 1000n < 0n ? 1n : 0n))).toISOString().slice(0, 10);
}
