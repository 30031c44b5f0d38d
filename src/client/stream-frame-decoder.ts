import { httpStatusForGrpcCode, isCantonErrorBody, normalizeCantonErrorBody, toLedgerApiError } from '../errors/index.js';
import type { JsGetUpdatesResponse } from '../schemas/index.js';
import type { UpdateDecoding } from '../updates/update-decoding.js';
import { updateElementDecoder } from '../updates/update-element-decoder.js';

/**
 * What the WebSocket update stream does with each frame's JSON (one per stream: the element decoder keeps
 * the last offset). A frame is either an element or a Canton error: a frame with the error body's keys and
 * no `update` is thrown as the `LedgerApiError` it describes — all ten fields kept, `PrunedOffsetError` for
 * pruned offsets, the HTTP status the server would have answered (from `grpcCodeValue`) as `status`, so
 * retry decisions are the same as over HTTP. Any other frame goes through `updateElementDecoder`
 * (decoding, validation, the order check, `rawText`), which throws what it throws.
 */
export function streamFrameDecoder(decoding: UpdateDecoding, request: string): (value: unknown, index: number, text: string) => JsGetUpdatesResponse {
  const decodeElement = updateElementDecoder(decoding);
  return (value, index, text) => {
    if (isCantonErrorBody(value) && !('update' in value)) {
      const body = normalizeCantonErrorBody(value);
      throw toLedgerApiError({ status: httpStatusForGrpcCode(body.grpcCodeValue), body, request });
    }
    return decodeElement(value, index, text);
  };
}
