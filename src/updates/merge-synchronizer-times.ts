import type { SynchronizerTime } from '../schemas/common.js';

/**
 * `previous` with the times of `next` laid over it: one entry per synchronizer, the entry of `next` winning
 * (it is the later element's), synchronizers first seen in `next` appended in their order.
 */
export function mergeSynchronizerTimes(previous: readonly SynchronizerTime[], next: readonly SynchronizerTime[]): SynchronizerTime[] {
  const bySynchronizer = new Map(previous.map((t) => [t.synchronizerId, t]));
  for (const t of next) bySynchronizer.set(t.synchronizerId, t);
  return [...bySynchronizer.values()];
}
