import { LedgerApiError } from '../../errors/ledger-api-error.js';

/**
 * Whether a failed request means the participant (or a proxy in front of it) does not offer the transport at
 * all, so `'auto'` should fall back to the next one: an answer 404 that is not a Canton error (the route is
 * unknown: the participant's legacy not-found body, a proxy's page), 405 (the path exists for another
 * method only), 426 (a proxy that wants another protocol) or 501 (not implemented). A Canton 404 —
 * `PACKAGE_NAMES_NOT_FOUND`, ... — is an answer of the transport, not a refusal. Pure.
 */
export function transportRefused(error: unknown): boolean {
  if (!(error instanceof LedgerApiError)) return false;
  if (error.status === 404) return error.body === undefined;
  return error.status === 405 || error.status === 426 || error.status === 501;
}
