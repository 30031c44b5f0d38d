import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ErrorCodes } from '../errors/error-codes.js';
import { LedgerRxError } from '../errors/ledger-rx-error.js';
import type { Checkpoint, CheckpointStore } from '../operators/checkpoint.js';
import { parseCheckpoint } from './parse-checkpoint.js';

/**
 * A {@link CheckpointStore} in a JSON file. Each save writes a temporary file beside the target, fsyncs it,
 * renames it over the target and fsyncs the directory, so a crash at any moment leaves either the old or the
 * new checkpoint — never a torn file. `load` returns `undefined` when the file does not exist and fails with
 * `CHECKPOINT_STORE_FAILED` when it holds something else.
 */
export class FileCheckpointStore implements CheckpointStore {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  async load(): Promise<Checkpoint | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new LedgerRxError(ErrorCodes.CHECKPOINT_STORE_FAILED, `cannot read checkpoint file ${this.path}`, { cause: error });
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new LedgerRxError(ErrorCodes.CHECKPOINT_STORE_FAILED, `checkpoint file ${this.path} is not JSON`, { cause: error });
    }
    return parseCheckpoint(value, `checkpoint file ${this.path}`);
  }

  async save(checkpoint: Checkpoint): Promise<void> {
    const temp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const body = `${JSON.stringify({ offset: checkpoint.offset, synchronizerTimes: checkpoint.synchronizerTimes, updatedAt: checkpoint.updatedAt })}\n`;
    try {
      const file = await open(temp, 'w', 0o644);
      try {
        await file.writeFile(body, 'utf8');
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, this.path);
      const dir = await open(dirname(this.path), 'r');
      try {
        await dir.sync();
      } finally {
        await dir.close();
      }
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw new LedgerRxError(ErrorCodes.CHECKPOINT_STORE_FAILED, `cannot write checkpoint file ${this.path}`, { cause: error });
    }
  }
}
