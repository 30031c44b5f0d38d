import { from, type ObservableInput } from 'rxjs';
import type { Checkpoint, CheckpointStore } from '../../operators/checkpoint.js';

/**
 * A {@link CheckpointStore} that runs `flush` (e.g. `NdjsonWriter.flush`: wait for pending writes, then
 * fsync) before each `save` of `store`, so a saved checkpoint never covers output that could still be lost.
 * `load` is `store.load`. A failed flush fails the save (the checkpoint is not written).
 */
export function flushBeforeSave(store: CheckpointStore, flush: () => Promise<void>): CheckpointStore {
  return {
    load: () => store.load(),
    save: (checkpoint: Checkpoint): ObservableInput<void> =>
      flush().then(async () => {
        await new Promise<void>((resolve, reject) => from(store.save(checkpoint)).subscribe({ error: reject, complete: resolve }));
      }),
  };
}
