import { Buffer } from 'node:buffer';

/**
 * When a JWT expires, from its `exp` claim, as epoch milliseconds; `undefined` when the token is not a JWT
 * (three dot-separated parts), its payload is not JSON, or it has no numeric `exp`. The token is decoded
 * WITHOUT verifying it: the value only schedules a reconnection before the participant would end the
 * stream with `ACCESS_TOKEN_EXPIRED`, it is never trusted for anything else. Never throws.
 */
export function jwtExpiresAt(token: string): number | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[1] === undefined || parts[1] === '') return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    const exp = (payload as { exp?: unknown } | null)?.exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
