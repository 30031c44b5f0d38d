import type { JsGetUpdatesResponse } from '../schemas/index.js';
import { decodeUpdateElement } from './decode-update-element.js';
import { rememberElementText } from './element-text.js';
import { elementOrderCheck, type OffsetOrder } from './element-order-check.js';

/** How the elements of a `POST /v2/updates` answer are decoded. */
export interface UpdateDecoding {
  /** Check each element against the wire schema. */
  readonly validate: boolean;
  /** Keep each element's exact JSON text, readable with `elementText(element)`. */
  readonly rawText: boolean;
  /** The range and order the request asked for: each element is checked against it (`elementOrderCheck`). */
  readonly order: OffsetOrder;
}

/**
 * The decode callback the body adapters call for each array element of ONE answer (make one per request:
 * it keeps the last offset): `decodeUpdateElement`, then the offset checked against the request's range and
 * order (a `ProtocolError` `OFFSET_NOT_INCREASING` otherwise), and with `rawText` the element's text
 * remembered for `elementText`.
 */
export function updateElementDecoder(decoding: UpdateDecoding): (value: unknown, index: number, text: string | undefined) => JsGetUpdatesResponse {
  const options = { validate: decoding.validate };
  const check = elementOrderCheck(decoding.order);
  if (!decoding.rawText) {
    return (value, index) => {
      const element = decodeUpdateElement(value, index, options);
      check(element, index);
      return element;
    };
  }
  return (value, index, text) => {
    const element = decodeUpdateElement(value, index, options);
    check(element, index);
    if (text !== undefined) rememberElementText(element, text);
    return element;
  };
}
