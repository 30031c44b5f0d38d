import { UsageError } from '../options/usage-error.js';

const units: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A duration flag (`500ms`, `30s`, `15m`, `12h`, `7d`, or a bare number of milliseconds) in ms; throws
 * `UsageError` naming `flag` otherwise.
 */
export function parseDuration(flag: string, value: string): number {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!m) throw new UsageError(`${flag} must be a duration such as 500ms, 30s, 15m, 12h or 7d, got '${value}'`);
  return Number(m[1]) * (units[m[2] ?? 'ms'] as number);
}
