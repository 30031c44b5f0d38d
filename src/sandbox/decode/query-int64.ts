import { SandboxError } from '../errors/sandbox-error.js';

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/**
 * An optional integer query parameter (`limit`, `stream_idle_timeout_ms` as int64; `pageSize` as int32
 * with `min`/`max`), read as tapir does with Java's `Long.parseLong`/`Integer.parseInt`: an optional `+`
 * or `-` and ASCII digits, nothing else, within the range. Returns `undefined` when absent, else the value
 * as a JS number (beyond 2^53 the nearest double); anything else is the server's 400 text/plain
 * `Invalid value for: query parameter <name>`.
 */
export function queryInt64(query: URLSearchParams, name: string, min: number | bigint = int64Min, max: number | bigint = int64Max): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const value = /^[+-]?\d+$/.test(raw) ? BigInt(raw) : undefined;
  if (value === undefined || value < int64Min || value > int64Max || value < BigInt(min) || value > BigInt(max)) {
    throw SandboxError.decodeFailure('', `query parameter ${name}`);
  }
  return Number(value);
}
