import type { JsGetUpdatesResponse } from '../schemas/updates.js';
import { elementText } from './element-text.js';
import { toWireElement } from './to-wire-element.js';

/**
 * The element as one line of JSON, exactly as the server sent it: the raw text the decoder kept (a read
 * with `rawText: true`), or — for an element too large to buffer, or text spread over several lines — the
 * element serialized again in its wire shape.
 */
export function wireJson(element: JsGetUpdatesResponse): string {
  const text = elementText(element);
  if (text !== undefined && !text.includes('\n')) return text;
  return JSON.stringify(toWireElement(element));
}
