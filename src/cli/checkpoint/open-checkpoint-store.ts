import { FileCheckpointStore } from '../../checkpoints/file-checkpoint-store.js';
import { PostgresCheckpointStore } from '../../checkpoints/postgres-checkpoint-store.js';
import type { CheckpointStore } from '../../operators/checkpoint.js';

/** An opened checkpoint store and how to release it. */
export interface OpenedCheckpointStore {
  readonly store: CheckpointStore;
  /** Where it lives, for logs (`file …` or `postgres stream …`; never the URL, which may hold a password). */
  readonly description: string;
  close(): Promise<void>;
}

/**
 * Opens the checkpoint store of `--checkpoint FILE` (a {@link FileCheckpointStore}) or of `--checkpoint-pg
 * URL --stream-name NAME` (a {@link PostgresCheckpointStore}, which creates its table if needed); resolves
 * `undefined` when neither is given. The caller checks the flag combination first.
 */
export async function openCheckpointStore(
  file: string | undefined,
  pgUrl: string | undefined,
  streamName: string | undefined,
): Promise<OpenedCheckpointStore | undefined> {
  if (file !== undefined) return { store: new FileCheckpointStore(file), description: `file ${file}`, close: async () => undefined };
  if (pgUrl !== undefined && streamName !== undefined) {
    const store = await PostgresCheckpointStore.open({ pool: pgUrl, streamName });
    return { store, description: `postgres stream ${streamName}`, close: () => store.close() };
  }
  return undefined;
}
