import { LedgerApiError } from '../errors/ledger-api-error.js';

/** True when the server said the list is larger than its cap (`413`): lower the limit and ask again. */
export function isListTooLarge(error: unknown): boolean {
  return error instanceof LedgerApiError && (error.status === 413 || error.code === 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED');
}
