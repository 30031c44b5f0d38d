import { AbortError, ErrorCodes, isLedgerRxError, TransportError, type TransportErrorCode } from '../../errors/index.js';
import { findErrorCode } from '../../errors/find-error-code.js';

/** Why the request's combined abort signal fired, if it did. */
export type AbortReason = 'caller' | 'closed' | 'timeout';

const codes: Readonly<Record<string, TransportErrorCode>> = {
  ECONNREFUSED: ErrorCodes.CONNECTION_FAILED,
  ENOTFOUND: ErrorCodes.CONNECTION_FAILED,
  EHOSTUNREACH: ErrorCodes.CONNECTION_FAILED,
  ENETUNREACH: ErrorCodes.CONNECTION_FAILED,
  EAI_AGAIN: ErrorCodes.CONNECTION_FAILED,
  ECONNRESET: ErrorCodes.CONNECTION_RESET,
  EPIPE: ErrorCodes.CONNECTION_RESET,
  UND_ERR_SOCKET: ErrorCodes.CONNECTION_RESET,
  UND_ERR_CLOSED: ErrorCodes.CONNECTION_RESET,
  UND_ERR_HEADERS_TIMEOUT: ErrorCodes.REQUEST_TIMEOUT,
  UND_ERR_BODY_TIMEOUT: ErrorCodes.REQUEST_TIMEOUT,
  UND_ERR_CONNECT_TIMEOUT: ErrorCodes.REQUEST_TIMEOUT,
  ETIMEDOUT: ErrorCodes.REQUEST_TIMEOUT,
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: ErrorCodes.BODY_TRUNCATED,
  // TLS: the server's certificate is not trusted (a private CA needs `tls.caFile`; docs/network-paths.md),
  // not valid for the host, or the server refused the handshake (a client certificate it wants).
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: ErrorCodes.CONNECTION_FAILED,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: ErrorCodes.CONNECTION_FAILED,
  SELF_SIGNED_CERT_IN_CHAIN: ErrorCodes.CONNECTION_FAILED,
  DEPTH_ZERO_SELF_SIGNED_CERT: ErrorCodes.CONNECTION_FAILED,
  CERT_HAS_EXPIRED: ErrorCodes.CONNECTION_FAILED,
  CERT_NOT_YET_VALID: ErrorCodes.CONNECTION_FAILED,
  ERR_TLS_CERT_ALTNAME_INVALID: ErrorCodes.CONNECTION_FAILED,
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: ErrorCodes.CONNECTION_FAILED,
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: ErrorCodes.CONNECTION_FAILED,
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: ErrorCodes.CONNECTION_FAILED,
  ERR_SSL_WRONG_VERSION_NUMBER: ErrorCodes.CONNECTION_FAILED,
};

const descriptions: Readonly<Record<TransportErrorCode, string>> = {
  CONNECTION_FAILED: 'could not connect',
  CONNECTION_RESET: 'the connection broke',
  REQUEST_TIMEOUT: 'timed out',
  HANDSHAKE_TIMEOUT: 'the WebSocket handshake got no answer',
  BODY_TRUNCATED: 'the response body ended early',
  PROXY_REFUSED: 'the proxy refused the tunnel',
};

/** The first known network/undici code in an error, its `cause` chain and `AggregateError.errors`. */
const findCode = (error: unknown): string | undefined => findErrorCode(error, (code) => code in codes);

/**
 * Maps a failure of an HTTP exchange (sending, waiting for headers, or reading the body) to a ledger-rx
 * error, keeping the original as `cause`:
 * - the caller's signal fired → `AbortError`; the client was closed → `AbortError`;
 * - the unary deadline fired → `TransportError` `REQUEST_TIMEOUT`;
 * - refused / unknown host / unreachable / a TLS handshake that failed (untrusted or wrong certificate,
 *   a refused client certificate) → `CONNECTION_FAILED`; reset / socket error / broken pipe /
 *   closed dispatcher → `CONNECTION_RESET`; undici headers/body/connect timeouts → `REQUEST_TIMEOUT`;
 *   a body shorter than its `content-length` → `BODY_TRUNCATED`;
 * - errors that already are ledger-rx errors, and anything unrecognised, are returned unchanged.
 * Messages name the request (`POST /v2/updates`) but never headers, so the token cannot leak.
 *
 * @param error - what undici (or the body stream) threw.
 * @param request - `METHOD /path`.
 * @param abortReason - why the request's signal fired, if it did.
 */
export function mapRequestError(error: unknown, request: string, abortReason?: AbortReason, timeoutMs?: number): unknown {
  if (abortReason === 'caller') return new AbortError(`${request} was aborted`, { cause: error });
  if (abortReason === 'closed') return new AbortError(`${request} was aborted: the ledger client was closed`, { cause: error });
  if (abortReason === 'timeout') {
    return new TransportError(ErrorCodes.REQUEST_TIMEOUT, `${request}: no complete response within ${timeoutMs ?? '?'} ms`, { request, cause: error });
  }
  if (isLedgerRxError(error)) return error;
  const found = findCode(error);
  if (found === undefined) return error;
  const code = codes[found] ?? ErrorCodes.CONNECTION_FAILED;
  return new TransportError(code, `${request}: ${descriptions[code]} (${found})`, { request, cause: error });
}
