import type { LedgerApiError } from '../errors/ledger-api-error.js';
import { isListTooLarge } from './is-list-too-large.js';

/**
 * The server's list cap stated by a 413 (`… is greater than the node limit (<N>).`), when the error is one
 * and states it; else `undefined`.
 */
export function statedListCap(error: unknown): number | undefined {
  if (!isListTooLarge(error)) return undefined;
  const match = /node limit \((\d+)\)/.exec((error as LedgerApiError).cantonCause);
  const cap = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(cap) && cap >= 1 ? cap : undefined;
}
