import { AbortError, ErrorCodes, isLedgerRxError, TransportError, type LedgerRxError } from '../errors/index.js';

/** Error codes that mean the body stopped early rather than the connection failing. */
const truncationCodes = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH']);

/**
 * The error to report when reading the body failed after `scanner` had consumed what came before:
 * a ledger-rx error passes unchanged; an `AbortError` (the request was aborted) becomes ledger-rx's
 * `AbortError`; a premature close or content-length mismatch becomes `TransportError` `BODY_TRUNCATED`;
 * anything else `TransportError` `CONNECTION_RESET`. The original error is the `cause`.
 */
export function bodyReadError(cause: unknown, scanner: { readonly bytesWritten: number; readonly elementCount: number }): LedgerRxError {
  if (isLedgerRxError(cause)) return cause;
  const where = `after ${scanner.bytesWritten} bytes and ${scanner.elementCount} elements`;
  const detail = cause instanceof Error ? cause.message : String(cause);
  const name = (cause as { name?: unknown } | null)?.name;
  const code = (cause as { code?: unknown } | null)?.code;
  if (name === 'AbortError' || code === 'ABORT_ERR') {
    return new AbortError(`reading the response body was aborted ${where}`, { cause });
  }
  if (typeof code === 'string' && truncationCodes.has(code)) {
    return new TransportError(ErrorCodes.BODY_TRUNCATED, `the response body ended early ${where}: ${detail}`, { cause });
  }
  return new TransportError(ErrorCodes.CONNECTION_RESET, `reading the response body failed ${where}: ${detail}`, { cause });
}
