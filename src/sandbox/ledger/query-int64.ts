import { SandboxError } from '../errors/sandbox-error.js';

/**
 * An optional int64 query parameter (`limit`, `stream_idle_timeout_ms`, `pageSize`): `undefined` when
 * absent, else a safe integer; anything else is the server's 400 text/plain
 * `Invalid value for: query parameter <name>`.
 */
export function queryInt64(query: URLSearchParams, name: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const n = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw SandboxError.decodeFailure('', `query parameter ${name}`);
  return n;
}
