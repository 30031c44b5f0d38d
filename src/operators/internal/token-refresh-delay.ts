/** A planned reconnection closer to the token's expiry than this is not made: the server decides then. */
const minimumDelayMs = 500;

/**
 * How long after `now` a stream whose token expires at `expiresAt` (epoch ms) should reconnect with a fresh
 * token, so that the participant never ends it with `ACCESS_TOKEN_EXPIRED`: `marginMs` before the expiry,
 * but not before half of the remaining lifetime (a short-lived token is not renewed in a tight loop).
 * `undefined` when the expiry is unknown, already passed, or less than a second away (the stream then
 * runs until the server ends it, and the read resumes at once with a fresh token). Pure.
 */
export function tokenRefreshDelay(expiresAt: number | undefined, now: number, marginMs: number): number | undefined {
  if (expiresAt === undefined) return undefined;
  const remaining = expiresAt - now;
  const delay = Math.max(remaining - marginMs, remaining / 2);
  return delay < minimumDelayMs ? undefined : Math.round(delay);
}
