import type { CheckpointSnapshot, Ledger } from '../ledger/ledger.js';
import { formatInstant } from './format-instant.js';

/**
 * The `OffsetCheckpoint` value of a checkpoint snapshot, as JSON: the offset and the latest record time
 * of every synchronizer of the participant. The update and the completion streams wrap it in their own
 * variant.
 */
export function checkpointJson(ledger: Ledger, snapshot: CheckpointSnapshot): string {
  const times = ledger.synchronizers
    .map((s, i) => `{"synchronizerId":${JSON.stringify(s.id)},"recordTime":"${formatInstant(snapshot.synchronizerTimes[i] ?? ledger.startedAtMs)}"}`)
    .join(',');
  return `{"offset":${snapshot.offset},"synchronizerTimes":[${times}]}`;
}
