import type { JsGetUpdatesResponse } from '../schemas/index.js';
import { decodeUpdateElement } from './decode-update-element.js';
import { elementOrderCheck } from './element-order-check.js';
import { rememberElementText } from './element-text.js';
import type { UpdateDecoding } from './update-decoding.js';

/**
 * What a transport does with each element of ONE answer to a request for updates, wherever its bytes came
 * from (an HTTP list parsed by the streams layer, a WebSocket frame, an element of a page): make one per
 * answer (it keeps the last offset) and call it with each parsed value, its index in the answer, its exact
 * JSON text when known, and the bytes of that text when the transport had them as one piece.
 *
 * For each element: `decodeUpdateElement` (validated or not, unknown variants made typed), then the offset
 * checked against the request's range and order by `elementOrderCheck` (a `ProtocolError`
 * `OFFSET_NOT_INCREASING` otherwise, thrown before the element is returned), and with `rawText` the text
 * remembered for `elementText` (and the bytes for `elementBytes`). Throws what those throw; returns the decoded element.
 */
export function updateElementDecoder(
  decoding: UpdateDecoding,
): (value: unknown, index: number, text: string | undefined, bytes?: Uint8Array) => JsGetUpdatesResponse {
  const options = { validate: decoding.validate };
  const check = elementOrderCheck(decoding.order);
  if (!decoding.rawText) {
    return (value, index) => {
      const element = decodeUpdateElement(value, index, options);
      check(element, index);
      return element;
    };
  }
  return (value, index, text, bytes) => {
    const element = decodeUpdateElement(value, index, options);
    check(element, index);
    if (text !== undefined) rememberElementText(element, text, bytes);
    return element;
  };
}
