import { requireNonNegativeInteger } from './require-non-negative-integer.js';

/**
 * Validates the query options of `POST /v2/updates`: `limit` and `streamIdleTimeoutMs`, when set, are
 * non-negative integers (the server answers 400 text/plain to a non-integer).
 *
 * @throws InvalidArgumentError naming `limit` or `streamIdleTimeoutMs`.
 */
export function validateUpdatesCallOptions(options: {
  readonly limit?: number | undefined;
  readonly streamIdleTimeoutMs?: number | undefined;
}): void {
  requireNonNegativeInteger(options.limit, 'limit');
  requireNonNegativeInteger(options.streamIdleTimeoutMs, 'streamIdleTimeoutMs');
}
