import type { ErrorCodes } from './error-codes.js';
import { LedgerRxError } from './ledger-rx-error.js';

/** The codes a {@link TransportError} can carry. */
export type TransportErrorCode =
  | typeof ErrorCodes.CONNECTION_FAILED
  | typeof ErrorCodes.CONNECTION_RESET
  | typeof ErrorCodes.PROXY_REFUSED
  | typeof ErrorCodes.REQUEST_TIMEOUT
  | typeof ErrorCodes.HANDSHAKE_TIMEOUT
  | typeof ErrorCodes.BODY_TRUNCATED;

/**
 * The HTTP exchange or WebSocket failed below the level of the API: the connection was refused or reset (a
 * WebSocket closed without an error frame), timed out (a silent WebSocket; `HANDSHAKE_TIMEOUT`: a WebSocket upgrade without an answer), or the body ended early
 * (`BODY_TRUNCATED`), or the proxy on the path refused the tunnel (`PROXY_REFUSED`). Retryable (for reads,
 * resume from the last delivered offset), except a proxy's refusal that will not change by itself (403, 407).
 */
export class TransportError extends LedgerRxError {
  override name = 'TransportError';
  declare readonly code: TransportErrorCode;
  /** `METHOD path` of the request that failed. */
  readonly request: string;
  /** For a WebSocket that closed: the close code (1006 for a connection lost without a close frame). */
  readonly closeCode: number | undefined;

  constructor(code: TransportErrorCode, message: string, options: { request?: string; cause?: unknown; closeCode?: number; retryable?: boolean } = {}) {
    super(code, message, { retryable: options.retryable ?? true, cause: options.cause });
    this.request = options.request ?? '';
    this.closeCode = options.closeCode;
  }
}
