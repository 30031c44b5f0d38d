import { open } from 'node:fs/promises';

/**
 * Cuts `path` back to just after its last newline, removing a partial last line that a killed writer left
 * behind (a missing file is left alone). Returns the number of bytes removed.
 *
 * Safe for `tail --checkpoint --out FILE`: the checkpoint is saved only after a line was flushed, so a torn
 * line belongs to an element past the checkpoint, which the resumed tail delivers again.
 */
export async function trimTornLastLine(path: string): Promise<number> {
  let file;
  try {
    file = await open(path, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  try {
    const { size } = await file.stat();
    const chunk = Buffer.allocUnsafe(64 * 1024);
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - chunk.length);
      const { bytesRead } = await file.read(chunk, 0, end - start, start);
      const newline = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (newline >= 0) {
        const keep = start + newline + 1;
        if (keep < size) await file.truncate(keep);
        return size - keep;
      }
      end = start;
    }
    if (size > 0) await file.truncate(0);
    return size;
  } finally {
    await file.close();
  }
}
