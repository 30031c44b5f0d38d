import type { Writable } from 'node:stream';
import type { CheckpointStore } from '../../operators/checkpoint.js';
import { resumeAfterOutput } from '../checkpoint/resume-after-output.js';
import type { Logger } from '../log/logger.js';
import { lastLineOffset } from '../output/last-line-offset.js';
import { openOutput } from '../output/open-output.js';
import type { OutputTarget } from '../output/output-target.js';

/** The output of a tail and the checkpoint store to resume from (see {@link openTailOutput}). */
export interface TailOutput {
  readonly target: OutputTarget;
  /** `store`, made to resume after the output file's last line when that is further; `undefined` without a checkpoint. */
  readonly store: CheckpointStore | undefined;
}

/**
 * Opens the data output of `tail` (`out`, or `stdout` when it is absent or `-`): appended to when a
 * checkpoint `store` is given (after cutting off a torn last line), truncated otherwise. With a checkpoint
 * and an output file, the read resumes after the greater of the stored offset and the offset of the file's
 * last complete line (logged), so a `kill -9` between two saves writes nothing twice; when the line is further,
 * the checkpoint is brought up to it (the file fsynced first) before the read starts. Rejects when the file
 * cannot be opened, or when its last line is not an update element.
 */
export async function openTailOutput(out: string | undefined, stdout: Writable, store: CheckpointStore | undefined, logger: Logger): Promise<TailOutput> {
  const target = await openOutput(out, stdout, store !== undefined);
  if (store === undefined || out === undefined || out === '-') return { target, store };
  try {
    const writtenUpTo = await lastLineOffset(out);
    if (writtenUpTo !== undefined) logger.info({ offset: writtenUpTo }, 'the output file ends with this offset: resuming after it unless the checkpoint is further');
    return { target, store: resumeAfterOutput(store, writtenUpTo, () => target.sync()) };
  } catch (error) {
    await target.close().catch(() => undefined);
    throw error;
  }
}
