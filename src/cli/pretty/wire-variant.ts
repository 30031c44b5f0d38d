import { isUnknownVariant } from '../../schemas/variant.js';

/**
 * The tag and payload of a variant as a value of this library holds it: `{"<Tag>": payload}` (the wire
 * form, and what validation keeps), or `{unknownVariant, payload}` (a kind this library does not know).
 * A payload wrapped in `{"value": …}` (updates, unassignments, topology events) is unwrapped. `undefined`
 * when `value` is neither.
 */
export function wireVariant(value: unknown): { readonly tag: string; readonly payload: Readonly<Record<string, unknown>> } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  let tag: string;
  let payload: unknown;
  if (isUnknownVariant(value)) {
    tag = value.unknownVariant;
    payload = value.payload;
  } else {
    const keys = Object.keys(value);
    if (keys.length !== 1) return undefined;
    tag = keys[0] as string;
    payload = (value as Record<string, unknown>)[tag];
  }
  if (typeof payload !== 'object' || payload === null) return { tag, payload: {} };
  const inner = (payload as Record<string, unknown>)['value'];
  const unwrapped = typeof inner === 'object' && inner !== null && !Array.isArray(inner) && Object.keys(payload).length === 1 ? inner : payload;
  return { tag, payload: unwrapped as Readonly<Record<string, unknown>> };
}
