import type { JsGetActiveContractsResponse } from '../schemas/index.js';
import { rememberElementText } from '../updates/element-text.js';
import { decodeActiveContractsElement } from './decode-active-contracts-element.js';

/** How the entries of one answer to a request for active contracts are decoded. */
export interface ActiveContractsDecoding {
  /** Check each entry against the wire schema. */
  readonly validate: boolean;
  /** Keep each entry's exact JSON text, readable with `elementText(element)`. */
  readonly rawText: boolean;
}

/**
 * What a transport does with each entry of an active-contracts answer, wherever its bytes came from (a
 * WebSocket frame, an element of the list or of a page): `decodeActiveContractsElement`, then with `rawText`
 * the text remembered for `elementText`. Snapshot entries have no order to check. Throws what the decoding
 * throws; returns the decoded entry.
 */
export function activeContractsElementDecoder(
  decoding: ActiveContractsDecoding,
): (value: unknown, index: number, text: string | undefined) => JsGetActiveContractsResponse {
  const options = { validate: decoding.validate };
  return (value, index, text) => {
    const element = decodeActiveContractsElement(value, index, options);
    if (decoding.rawText && text !== undefined) rememberElementText(element, text);
    return element;
  };
}
