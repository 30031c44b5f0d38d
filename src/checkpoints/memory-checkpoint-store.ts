import type { Checkpoint, CheckpointStore } from '../operators/checkpoint.js';

/** A {@link CheckpointStore} in memory: for tests and for streams that need no durability. */
export class MemoryCheckpointStore implements CheckpointStore {
  private current: Checkpoint | undefined;
  /** Every checkpoint saved, in order (for inspection). */
  readonly history: Checkpoint[] = [];

  constructor(initial?: Checkpoint) {
    this.current = initial;
  }

  load(): Promise<Checkpoint | undefined> {
    return Promise.resolve(this.current);
  }

  save(checkpoint: Checkpoint): Promise<void> {
    this.current = checkpoint;
    this.history.push(checkpoint);
    return Promise.resolve();
  }
}
