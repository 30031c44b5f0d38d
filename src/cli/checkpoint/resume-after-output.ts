import { from, type ObservableInput } from 'rxjs';
import type { Checkpoint, CheckpointStore } from '../../operators/checkpoint.js';

/**
 * A {@link CheckpointStore} whose `load` resumes after whichever is further: the checkpoint in `store`, or
 * `writtenUpTo`, the offset of the last line already in the output file. Lines written after the last save
 * (a `kill -9` between saves) are thus not written again: the output itself is the finer checkpoint. When
 * the line is further, `load` first brings `store` up to it: `sync` makes the file's lines durable, then
 * the checkpoint of the line is saved (with the stored synchronizer times, those of an older offset, which
 * only matter for the record-time bookkeeping), so the stored checkpoint is never left behind the output, also
 * when the run then reads nothing more; a failed sync or save fails the load. `save` is `store.save`.
 */
export function resumeAfterOutput(store: CheckpointStore, writtenUpTo: number | undefined, sync: () => Promise<void>): CheckpointStore {
  if (writtenUpTo === undefined) return store;
  const settle = <T>(input: ObservableInput<T>): Promise<T | undefined> =>
    new Promise<T | undefined>((resolve, reject) => {
      let last: T | undefined;
      from(input).subscribe({ next: (value) => (last = value), error: reject, complete: () => resolve(last) });
    });
  return {
    load: async (): Promise<Checkpoint | undefined> => {
      const saved = await settle(store.load());
      if (saved !== undefined && saved.offset >= writtenUpTo) return saved;
      const caughtUp: Checkpoint = { offset: writtenUpTo, synchronizerTimes: saved?.synchronizerTimes ?? [], updatedAt: new Date().toISOString() };
      await sync();
      await settle(store.save(caughtUp));
      return caughtUp;
    },
    save: (checkpoint) => store.save(checkpoint),
  };
}
