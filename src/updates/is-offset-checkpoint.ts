import type { JsGetUpdatesResponse } from '../schemas/updates.js';

/** True when the element is an `OffsetCheckpoint` (a position marker, not an update). */
export function isOffsetCheckpoint(element: JsGetUpdatesResponse): boolean {
  const update: unknown = element.update;
  return typeof update === 'object' && update !== null && 'OffsetCheckpoint' in update;
}
