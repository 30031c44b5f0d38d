import { LedgerApiError } from '../errors/ledger-api-error.js';

/**
 * Server errors that end a read which should go on at once, without backoff, because the next request
 * fixes them by itself:
 * - `ACCESS_TOKEN_EXPIRED` (the token's `exp` passed while a stream was open) and
 *   `STALE_STREAM_AUTHORIZATION` (the user's rights changed): the next request fetches a fresh token from
 *   the token provider, and is authorized again or refused for good;
 * - `INVALID_UPDATES_PAGE_TOKEN` (a `get-updates-page` token the participant no longer accepts: another
 *   participant behind the same address, an upgrade): the next request starts a new chain, without the
 *   token, after the last delivered offset.
 */
const codes = new Set(['ACCESS_TOKEN_EXPIRED', 'STALE_STREAM_AUTHORIZATION', 'INVALID_UPDATES_PAGE_TOKEN']);

/** Whether `error` is one of the server errors after which a read resumes at once (see {@link codes}). Pure. */
export function resumesAtOnce(error: unknown): boolean {
  return error instanceof LedgerApiError && codes.has(error.code);
}
