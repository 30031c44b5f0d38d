import { httpStatusForGrpcCode, isCantonErrorBody, normalizeCantonErrorBody, toLedgerApiError } from '../../errors/index.js';

/**
 * What a WebSocket stream does with each frame's JSON (make one per connection: the element decoder may keep
 * state, such as the last offset). A frame is either an element or a Canton error, told apart by shape: a
 * frame with the error body's keys and no `elementKey` member (`update`, `contractEntry`,
 * `completionResponse`) is thrown as the `LedgerApiError` it describes — all ten fields kept,
 * `PrunedOffsetError` for pruned offsets, the HTTP status the server would have answered (from
 * `grpcCodeValue`) as `status`, so retry decisions are the same as over HTTP. Any other frame goes through
 * `decodeElement` (decoding, validation, checks, `rawText`), which throws what it throws.
 */
export function streamFrameDecoder<T>(
  elementKey: string,
  decodeElement: (value: unknown, index: number, text: string, bytes: Uint8Array) => T,
  request: string,
): (value: unknown, index: number, text: string, bytes: Uint8Array) => T {
  return (value, index, text, bytes) => {
    if (isCantonErrorBody(value) && !(elementKey in value)) {
      const body = normalizeCantonErrorBody(value);
      throw toLedgerApiError({ status: httpStatusForGrpcCode(body.grpcCodeValue), body, request });
    }
    return decodeElement(value, index, text, bytes);
  };
}
