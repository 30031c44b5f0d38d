import { ErrorCodes, ProtocolError } from '../errors/index.js';

/**
 * The `MALFORMED_JSON` error for a syntax error inside (or between) array elements. `bytePosition` is the
 * absolute position of the offending byte in the response body; `elementIndex` the index of the element being
 * read (for an error between elements, the index the next element would have had).
 */
export function malformedElementError(
  elementIndex: number,
  bytePosition: number,
  detail: string,
  cause?: unknown,
): ProtocolError {
  return new ProtocolError(
    ErrorCodes.MALFORMED_JSON,
    `malformed JSON at byte ${bytePosition} of the response body (array element ${elementIndex}): ${detail}`,
    { elementIndex, bytePosition, ...(cause === undefined ? {} : { cause }) },
  );
}
