import type { SynchronizerTime } from '../schemas/common.js';
import type { JsGetUpdatesResponse } from '../schemas/updates.js';

type Payload = { value?: { synchronizerTimes?: SynchronizerTime[] | null; synchronizerId?: string; recordTime?: string } };

/**
 * The record times an element of `POST /v2/updates` reports: an `OffsetCheckpoint`'s list, or an update's
 * own synchronizer and record time (a `Transaction`, `Reassignment` or `TopologyTransaction` that has
 * both); otherwise an empty list. Never throws.
 */
export function synchronizerTimesOf(element: JsGetUpdatesResponse): readonly SynchronizerTime[] {
  const update = element.update as Record<string, Payload | undefined>;
  const checkpoint = update['OffsetCheckpoint']?.value;
  if (checkpoint) return checkpoint.synchronizerTimes ?? [];
  for (const key of ['Transaction', 'Reassignment', 'TopologyTransaction']) {
    const v = update[key]?.value;
    if (v && typeof v.synchronizerId === 'string' && typeof v.recordTime === 'string') {
      return [{ synchronizerId: v.synchronizerId, recordTime: v.recordTime }];
    }
  }
  return [];
}
