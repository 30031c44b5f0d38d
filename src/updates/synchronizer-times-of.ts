import type { SynchronizerTime } from '../schemas/common.js';
import type { JsGetUpdatesResponse } from '../schemas/updates.js';

type Payload = { value?: { synchronizerTimes?: unknown; synchronizerId?: unknown; recordTime?: unknown } };

const isTime = (t: unknown): t is SynchronizerTime =>
  typeof t === 'object' && t !== null && typeof (t as SynchronizerTime).synchronizerId === 'string' && typeof (t as SynchronizerTime).recordTime === 'string';

/**
 * The record times an element of `POST /v2/updates` reports: an `OffsetCheckpoint`'s list, or an update's
 * own synchronizer and record time (a `Transaction`, `Reassignment` or `TopologyTransaction` that has
 * both); otherwise an empty list. Read defensively (elements may be unvalidated): malformed entries are
 * left out. Never throws.
 */
export function synchronizerTimesOf(element: JsGetUpdatesResponse): readonly SynchronizerTime[] {
  const update = element.update as Record<string, Payload | undefined> | null | undefined;
  if (typeof update !== 'object' || update === null) return [];
  const checkpoint = update['OffsetCheckpoint']?.value;
  if (checkpoint) {
    const times = checkpoint.synchronizerTimes;
    return Array.isArray(times) ? times.filter(isTime).map((t) => ({ synchronizerId: t.synchronizerId, recordTime: t.recordTime })) : [];
  }
  for (const key of ['Transaction', 'Reassignment', 'TopologyTransaction']) {
    const v = update[key]?.value;
    if (v && typeof v.synchronizerId === 'string' && typeof v.recordTime === 'string') {
      return [{ synchronizerId: v.synchronizerId, recordTime: v.recordTime }];
    }
  }
  return [];
}
