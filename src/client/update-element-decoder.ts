import type { JsGetUpdatesResponse } from '../schemas/index.js';
import { decodeUpdateElement, rememberElementText } from '../streams/index.js';

/** How the elements of a `POST /v2/updates` answer are decoded. */
export interface UpdateDecoding {
  /** Check each element against the wire schema. */
  readonly validate: boolean;
  /** Keep each element's exact JSON text, readable with `elementText(element)`. */
  readonly rawText: boolean;
}

/**
 * The decode callback the body adapters call for each array element: `decodeUpdateElement`, and with
 * `rawText` the element's text remembered for `elementText`.
 */
export function updateElementDecoder(decoding: UpdateDecoding): (value: unknown, index: number, text: string | undefined) => JsGetUpdatesResponse {
  const options = { validate: decoding.validate };
  if (!decoding.rawText) return (value, index) => decodeUpdateElement(value, index, options);
  return (value, index, text) => {
    const element = decodeUpdateElement(value, index, options);
    if (text !== undefined) rememberElementText(element, text);
    return element;
  };
}
