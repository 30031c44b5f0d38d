import type { JsGetUpdatesResponse } from '../schemas/updates.js';

/** The kind of an element of the update stream (the metrics count elements by it). */
export type UpdateKind = 'transaction' | 'reassignment' | 'topology' | 'checkpoint' | 'unknown';

/** `Transaction` → transaction, `Reassignment` → reassignment, `TopologyTransaction` → topology, `OffsetCheckpoint` → checkpoint, else unknown. */
export function updateKind(element: JsGetUpdatesResponse): UpdateKind {
  const update: unknown = (element as { update?: unknown } | null | undefined)?.update;
  if (typeof update !== 'object' || update === null) return 'unknown';
  if ('Transaction' in update) return 'transaction';
  if ('OffsetCheckpoint' in update) return 'checkpoint';
  if ('Reassignment' in update) return 'reassignment';
  if ('TopologyTransaction' in update) return 'topology';
  return 'unknown';
}

type Payload = { value?: { recordTime?: unknown; synchronizerTimes?: unknown } } | undefined;

/**
 * The record time an element carries: an update's `recordTime`, or the latest `recordTime` of an
 * `OffsetCheckpoint`'s synchronizer times (RFC 3339 strings compare by time when they share the UTC `Z`
 * form the server uses; the latest is found by parsing). `undefined` when there is none.
 */
export function updateRecordTime(element: JsGetUpdatesResponse): string | undefined {
  const update = (element as { update?: Record<string, Payload> } | null | undefined)?.update;
  if (typeof update !== 'object' || update === null) return undefined;
  for (const key in update) {
    const value = update[key]?.value;
    if (typeof value !== 'object' || value === null) return undefined;
    if (typeof value.recordTime === 'string') return value.recordTime;
    if (!Array.isArray(value.synchronizerTimes)) return undefined;
    let latest: string | undefined;
    let latestMs = -Infinity;
    for (const t of value.synchronizerTimes as unknown[]) {
      const time = typeof t === 'object' && t !== null ? (t as { recordTime?: unknown }).recordTime : undefined;
      if (typeof time !== 'string') continue;
      const ms = Date.parse(time);
      if (ms > latestMs) {
        latestMs = ms;
        latest = time;
      }
    }
    return latest;
  }
  return undefined;
}
