import { isUnknownVariant } from '../schemas/variant.js';
import type { JsGetUpdatesResponse } from '../schemas/updates.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unwrapVariant(value: unknown): unknown {
  return isUnknownVariant(value) ? { [value.unknownVariant]: value.payload } : value;
}

/**
 * The element as the server sent it. Elements decoded without validation are the server's JSON as is,
 * except that variants unknown to this library (an update kind, an event kind) were rewritten to
 * `{unknownVariant, payload}`; this puts them back as `{"<kind>": payload}`, copying only what changes.
 * The result serializes to the wire JSON of the element (modulo whitespace and key order).
 */
export function toWireElement(element: JsGetUpdatesResponse): unknown {
  const update: unknown = element.update;
  if (isUnknownVariant(update)) return { ...element, update: { [update.unknownVariant]: update.payload } };
  if (!isObject(update)) return element;
  let tag: string | undefined;
  for (const key in update) tag = key;
  if (tag === undefined || tag === 'OffsetCheckpoint') return element;
  const payload = update[tag];
  const inner = isObject(payload) ? payload['value'] : undefined;
  const events = isObject(inner) ? inner['events'] : undefined;
  if (!Array.isArray(events)) return element;
  const topology = tag === 'TopologyTransaction';
  const changed = events.some((e) => (topology ? isObject(e) && isUnknownVariant(e['event']) : isUnknownVariant(e)));
  if (!changed) return element;
  const mapped = events.map((e) => (topology ? (isObject(e) && isUnknownVariant(e['event']) ? { ...e, event: unwrapVariant(e['event']) } : e) : unwrapVariant(e)));
  return { ...element, update: { [tag]: { ...(payload as object), value: { ...(inner as object), events: mapped } } } };
}
