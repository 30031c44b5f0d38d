import { from, type ObservableInput } from 'rxjs';
import type { Checkpoint, CheckpointStore } from '../../operators/checkpoint.js';

/**
 * A {@link CheckpointStore} whose `load` resumes after whichever is further: the checkpoint in `store`, or
 * `writtenUpTo`, the offset of the last line already in the output file. Lines written after the last save
 * (a `kill -9` between saves) are thus not written again: the output itself is the finer checkpoint. When
 * the line is further, the loaded checkpoint keeps the stored synchronizer times (those of an older offset,
 * which only matter for the record-time bookkeeping). `save` is `store.save`.
 */
export function resumeAfterOutput(store: CheckpointStore, writtenUpTo: number | undefined): CheckpointStore {
  if (writtenUpTo === undefined) return store;
  return {
    load: (): ObservableInput<Checkpoint | undefined> =>
      new Promise<Checkpoint | undefined>((resolve, reject) => {
        let saved: Checkpoint | undefined;
        from(store.load()).subscribe({
          next: (c) => (saved = c),
          error: reject,
          complete: () =>
            resolve(
              saved !== undefined && saved.offset >= writtenUpTo
                ? saved
                : { offset: writtenUpTo, synchronizerTimes: saved?.synchronizerTimes ?? [], updatedAt: saved?.updatedAt ?? new Date(0).toISOString() },
            ),
        });
      }),
    save: (checkpoint) => store.save(checkpoint),
  };
}
