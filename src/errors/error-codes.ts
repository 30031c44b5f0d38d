/**
 * The stable `code` values of errors raised by ledger-rx itself. Errors that come from the server
 * ({@link LedgerApiError}) carry the Canton error code instead (`OFFSET_AFTER_LEDGER_END`, ...), `NA` for
 * redacted security errors, or `HTTP_<status>` when the body is not a Canton error.
 * Match on `code`, not on `instanceof`.
 */
export const ErrorCodes = {
  /** A request failed client-side validation; nothing was sent. */
  INVALID_CLIENT_ARGUMENT: 'INVALID_CLIENT_ARGUMENT',
  /** The caller aborted (unsubscribe or AbortSignal). */
  ABORTED: 'ABORTED',
  /** Could not connect (refused, DNS, unreachable). */
  CONNECTION_FAILED: 'CONNECTION_FAILED',
  /** The connection broke before a response was complete. */
  CONNECTION_RESET: 'CONNECTION_RESET',
  /**
   * The HTTP proxy on the path (docs/network-paths.md) answered the client's `CONNECT` with something other
   * than 200 (403 forbidden, 407 proxy authentication required, 502 bad gateway, ...).
   */
  PROXY_REFUSED: 'PROXY_REFUSED',
  /** No response (headers or body data) within the configured time. */
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  /**
   * A WebSocket upgrade got no answer within `webSocketHandshakeTimeoutMs` (a proxy that swallows upgrades,
   * docs/network-paths.md); the `'auto'` transport falls back to HTTP on it.
   */
  HANDSHAKE_TIMEOUT: 'HANDSHAKE_TIMEOUT',
  /** The response body ended before the JSON it started was complete. */
  BODY_TRUNCATED: 'BODY_TRUNCATED',
  /** The response body is not well-formed JSON. */
  MALFORMED_JSON: 'MALFORMED_JSON',
  /** The response body is JSON but does not match the wire schema. */
  SCHEMA_MISMATCH: 'SCHEMA_MISMATCH',
  /** The response has an unexpected status or content type. */
  UNEXPECTED_RESPONSE: 'UNEXPECTED_RESPONSE',
  /** An update stream delivered an offset that is not greater than the previous one. */
  OFFSET_NOT_INCREASING: 'OFFSET_NOT_INCREASING',
  /** A paged listing returned a page token that does not advance. */
  PAGE_TOKEN_NOT_ADVANCING: 'PAGE_TOKEN_NOT_ADVANCING',
  /** A retry loop gave up; `cause` is the last error. */
  RETRIES_EXHAUSTED: 'RETRIES_EXHAUSTED',
  /** A checkpoint store failed to load or save. */
  CHECKPOINT_STORE_FAILED: 'CHECKPOINT_STORE_FAILED',
  /** Another process writes the same stream of a sink (a held stream lock, a refused expected sequence). */
  SINK_CONFLICT: 'SINK_CONFLICT',
  /** A sink's destination refused or lost a write it cannot retry (a broker error, a changed stream). */
  SINK_FAILED: 'SINK_FAILED',
  /** A submitted command was accepted and then failed: its completion carries a non-zero status. */
  COMMAND_FAILED: 'COMMAND_FAILED',
  /** No completion for a submitted command arrived in time: it may or may not commit. */
  COMMAND_OUTCOME_UNKNOWN: 'COMMAND_OUTCOME_UNKNOWN',
  /** An entry point needs an optional peer dependency that is not installed (docs/packaging.md). */
  PEER_DEPENDENCY_MISSING: 'PEER_DEPENDENCY_MISSING',
  /** The connected participant's version does not have the operation (docs/participant-versions.md); nothing was sent. */
  UNSUPPORTED_BY_PARTICIPANT_VERSION: 'UNSUPPORTED_BY_PARTICIPANT_VERSION',
} as const;

/** A code raised by ledger-rx itself. */
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];
