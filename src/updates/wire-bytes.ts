import type { JsGetUpdatesResponse } from '../schemas/updates.js';
import { elementBytes } from './element-text.js';
import { wireJson } from './wire-json.js';

const newline = 0x0a;

/**
 * The element as one line of JSON in UTF-8, exactly as the server sent it: the received bytes themselves
 * when the read kept them (`elementBytes`: a WebSocket frame; no copy, do not modify them), else
 * {@link wireJson} encoded. Like `wireJson`, text spread over several lines is serialized again.
 */
export function wireBytes(element: JsGetUpdatesResponse): Uint8Array {
  const bytes = elementBytes(element);
  if (bytes !== undefined && !bytes.includes(newline)) return bytes;
  return Buffer.from(wireJson(element), 'utf8');
}
