import { UsageError } from '../options/usage-error.js';

const units: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, t: 1024 ** 4, tb: 1024 ** 4 };

/** A size flag (`500`, `64MB`, `10GB`, binary units, case-insensitive) in bytes; throws `UsageError` naming `flag` otherwise. */
export function parseByteSize(flag: string, value: string): number {
  const m = /^(\d+)\s*([a-zA-Z]*)$/.exec(value.trim());
  const unit = units[(m?.[2] ?? 'x').toLowerCase()];
  if (!m || unit === undefined) throw new UsageError(`${flag} must be a size such as 500MB or 10GB, got '${value}'`);
  return Number(m[1]) * unit;
}
