import type { ErrorCodes } from './error-codes.js';
import { LedgerRxError } from './ledger-rx-error.js';

/** The codes a {@link ProtocolError} can carry. */
export type ProtocolErrorCode =
  | typeof ErrorCodes.MALFORMED_JSON
  | typeof ErrorCodes.SCHEMA_MISMATCH
  | typeof ErrorCodes.UNEXPECTED_RESPONSE
  | typeof ErrorCodes.OFFSET_NOT_INCREASING
  | typeof ErrorCodes.PAGE_TOKEN_NOT_ADVANCING;

/** One problem found by schema validation, as reported by zod. */
export interface ProtocolIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly code?: string;
}

/**
 * The server answered, but not with what the API promises: malformed JSON, a body that fails the wire
 * schema, an offset that goes backwards. Not retryable: the same request would fail the same way.
 */
export class ProtocolError extends LedgerRxError {
  override name = 'ProtocolError';
  declare readonly code: ProtocolErrorCode;
  /** Schema issues, for `SCHEMA_MISMATCH`. */
  readonly issues: readonly ProtocolIssue[];
  /** Index of the element within a streamed array, when the problem is in one element. */
  readonly elementIndex: number | undefined;
  /** Offset of the element, when it could be read. */
  readonly offset: number | undefined;
  /** Byte position in the body, for `MALFORMED_JSON`. */
  readonly bytePosition: number | undefined;

  constructor(
    code: ProtocolErrorCode,
    message: string,
    options: {
      issues?: readonly ProtocolIssue[];
      elementIndex?: number;
      offset?: number;
      bytePosition?: number;
      cause?: unknown;
    } = {},
  ) {
    super(code, message, { retryable: false, cause: options.cause });
    this.issues = options.issues ?? [];
    this.elementIndex = options.elementIndex;
    this.offset = options.offset;
    this.bytePosition = options.bytePosition;
  }
}
