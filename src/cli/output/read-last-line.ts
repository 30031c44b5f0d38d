import { open, stat } from 'node:fs/promises';

/**
 * The last complete line of `path` (the text before its final newline, back to the newline before it), or
 * `undefined` when the file is missing, empty, has no newline at all, or is not a regular file (a FIFO,
 * `/dev/null`: nothing to read back, and opening a FIFO for reading would block). Reads backwards in 64 KiB chunks,
 * so only the last line is read, however large the file. A text after the final newline (a torn line; see
 * `trimTornLastLine`) is not a complete line and is skipped.
 */
export async function readLastLine(path: string): Promise<string | undefined> {
  let file;
  try {
    if (!(await stat(path)).isFile()) return undefined;
    file = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { size } = await file.stat();
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const parts: Buffer[] = [];
    let lineEnd: number | undefined; // the position of the final newline
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - chunk.length);
      const { bytesRead } = await file.read(chunk, 0, end - start, start);
      let data = chunk.subarray(0, bytesRead);
      if (lineEnd === undefined) {
        const newline = data.lastIndexOf(0x0a);
        if (newline < 0) {
          end = start;
          continue;
        }
        lineEnd = start + newline;
        data = data.subarray(0, newline);
      }
      const previous = data.lastIndexOf(0x0a);
      if (previous >= 0) {
        parts.unshift(Buffer.from(data.subarray(previous + 1)));
        return Buffer.concat(parts).toString('utf8');
      }
      parts.unshift(Buffer.from(data));
      end = start;
    }
    return lineEnd === undefined ? undefined : Buffer.concat(parts).toString('utf8');
  } finally {
    await file.close();
  }
}
