import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { TEMPORARY_PREFIX } from './export-file-name.js';

/**
 * Files that become visible only when complete and durable, the export's commit protocol
 * (docs/analytics-export.md, "Exactly once"): `stage` writes bytes to a temporary name in the target's
 * directory (`.tmp-<name>.<random>.partial`: never matched by `*.parquet`) and fsyncs the file; `publish`
 * renames staged files to their names; `sync` fsyncs every directory that gained or lost an entry since
 * the last `sync` (and the parents of directories it created), after which the renames survive a crash.
 */
export class DurableFiles {
  private readonly touched = new Set<string>();
  private readonly made = new Set<string>();

  /** Creates `dir` and its missing parents (remembering them, so that `sync` makes the creations durable). */
  async ensureDir(dir: string): Promise<void> {
    if (this.made.has(dir)) return;
    const first = await mkdir(dir, { recursive: true });
    if (first !== undefined) {
      // every directory from `first` down to `dir` is new: its entry in its parent must be synced
      for (let d = dir; ; d = dirname(d)) {
        this.touched.add(dirname(d));
        if (d === first || dirname(d) === d) break;
      }
    }
    this.made.add(dir);
  }

  /** A temporary path beside `path`. */
  temporaryPath(path: string): string {
    return join(dirname(path), `${TEMPORARY_PREFIX}${basename(path)}.${randomBytes(4).toString('hex')}.partial`);
  }

  /** Writes `chunks` to a temporary file beside `path` and fsyncs it; resolves with the temporary path. */
  async stage(path: string, chunks: readonly Uint8Array[]): Promise<string> {
    await this.ensureDir(dirname(path));
    const temporary = this.temporaryPath(path);
    const handle = await open(temporary, 'w');
    try {
      for (const chunk of chunks) await handle.write(chunk);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return temporary;
  }

  /** Fsyncs a file written by someone else (a streamed Parquet file) at `path`. */
  async syncFile(path: string): Promise<void> {
    const handle = await open(path, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** Renames a staged file to its name (atomic within the directory). */
  async publish(temporary: string, path: string): Promise<void> {
    await rename(temporary, path);
    this.touched.add(dirname(path));
  }

  /** Removes a file (a temporary one, or a complete one past the resume position). */
  async remove(path: string): Promise<void> {
    await rm(path, { force: true });
    this.touched.add(dirname(path));
  }

  /** Fsyncs the directories touched since the last call. */
  async sync(): Promise<void> {
    const dirs = [...this.touched];
    this.touched.clear();
    for (const dir of dirs) {
      const handle = await open(dir, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
  }
}
