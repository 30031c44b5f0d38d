import type { ObservableInput } from 'rxjs';
import type { SynchronizerTime } from '../schemas/common.js';

/**
 * A resumable position in an update stream: the offset of the last processed element, the latest record
 * time seen per synchronizer (from offset checkpoints), and when it was recorded (ISO timestamp).
 */
export interface Checkpoint {
  readonly offset: number;
  readonly synchronizerTimes: readonly SynchronizerTime[];
  readonly updatedAt: string;
}

/**
 * Where checkpoints live. `load` gives the last saved checkpoint (or `undefined` for a new stream);
 * `save` persists one durably before it completes. Both return a Promise in the stores ledger-rx ships; an
 * Observable works too (a test store on virtual time, for instance). `trackCheckpoint` never issues two
 * saves at once, and the offsets it saves only grow.
 */
export interface CheckpointStore {
  load(): ObservableInput<Checkpoint | undefined>;
  save(checkpoint: Checkpoint): ObservableInput<void>;
}
