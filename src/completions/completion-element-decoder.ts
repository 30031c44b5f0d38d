import type { CompletionStreamResponse } from '../schemas/index.js';
import type { OffsetOrder } from '../updates/element-order-check.js';
import { rememberElementText } from '../updates/element-text.js';
import { offsetOrderCheck } from '../updates/offset-order-check.js';
import { completionOffset } from './completion-offset.js';
import { decodeCompletionElement } from './decode-completion-element.js';
import { isCompletionCheckpoint } from './is-completion-checkpoint.js';

/** How the elements of one answer to a request for completions are decoded (see {@link completionElementDecoder}). */
export interface CompletionDecoding {
  /** Check each element against the wire schema. */
  readonly validate: boolean;
  /** Keep each element's exact JSON text, readable with `elementText(element)`. */
  readonly rawText: boolean;
  /** The range the request asked for, `(beginExclusive, ∞)`, ascending. */
  readonly order: OffsetOrder;
}

/**
 * What a transport does with each element of ONE answer to a request for completions (a WebSocket stream,
 * one list): make one per answer (it keeps the last offset). For each element: `decodeCompletionElement`,
 * then the offset checked against the request (after `beginExclusive`, strictly increasing; a checkpoint may
 * repeat the offset just reached) — a `ProtocolError` `OFFSET_NOT_INCREASING` otherwise, thrown before the
 * element is returned — and with `rawText` the text remembered for `elementText`.
 */
export function completionElementDecoder(
  decoding: CompletionDecoding,
): (value: unknown, index: number, text: string | undefined) => CompletionStreamResponse {
  const options = { validate: decoding.validate };
  const check = offsetOrderCheck(decoding.order, completionOffset, isCompletionCheckpoint);
  return (value, index, text) => {
    const element = decodeCompletionElement(value, index, options);
    check(element, index);
    if (decoding.rawText && text !== undefined) rememberElementText(element, text);
    return element;
  };
}
