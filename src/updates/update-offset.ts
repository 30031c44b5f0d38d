import { isUnknownVariant, type JsGetUpdatesResponse } from '../schemas/index.js';

/**
 * The offset of an element of the `POST /v2/updates` array: `value.offset` of a `Transaction`,
 * `Reassignment`, `TopologyTransaction` or `OffsetCheckpoint`; for an unknown variant, a best-effort
 * `payload.value.offset` or `payload.offset`. Returns `undefined` when there is no such field or it is not a
 * safe integer. Never throws, whatever the shape of `element` (it also serves for elements that failed
 * validation).
 */
export function updateOffset(element: JsGetUpdatesResponse): number | undefined {
  const update: unknown = (element as { update?: unknown } | null | undefined)?.update;
  if (typeof update !== 'object' || update === null) return undefined;
  if (isUnknownVariant(update)) return payloadOffset(update.payload);
  for (const key in update) return payloadOffset((update as Record<string, unknown>)[key]);
  return undefined;
}

function payloadOffset(payload: unknown): number | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const value = (payload as { value?: unknown }).value;
  const offset = typeof value === 'object' && value !== null && 'offset' in value
    ? (value as { offset?: unknown }).offset
    : (payload as { offset?: unknown }).offset;
  return typeof offset === 'number' && Number.isSafeInteger(offset) ? offset : undefined;
}
