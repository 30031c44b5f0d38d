import { createWriteStream, fsync } from 'node:fs';
import type { Writable } from 'node:stream';
import type { OutputTarget } from './output-target.js';
import { trimTornLastLine } from './trim-torn-last-line.js';

/**
 * fsync of `fd`. EINVAL and ENOTSUP mean the file cannot be synchronized at all (`/dev/null`, a FIFO, a
 * terminal: POSIX's "special file which does not support synchronization"), so there is nothing to make
 * durable and the call resolves; any other error rejects.
 */
function fsyncFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) =>
    fsync(fd, (error) => {
      if (error && error.code !== 'EINVAL' && error.code !== 'ENOTSUP') reject(error);
      else resolve();
    }),
  );
}

/**
 * Opens the data output: the file `path` (appended to when `append` — after cutting off a partial last line
 * a killed run left behind — else truncated; fsynced by `sync`, which resolves at once for a special file
 * that cannot be synchronized, such as `/dev/null` or a FIFO),
 * or `stdout` when `path` is undefined or `-` (`sync` fsyncs it when it is a file and is a no-op for pipes
 * and terminals; `close` waits for pending writes but leaves it open). Resolves once a file is open;
 * rejects when it cannot be opened.
 */
export async function openOutput(path: string | undefined, stdout: Writable, append: boolean): Promise<OutputTarget> {
  if (path === undefined || path === '-') {
    const fd = (stdout as { fd?: unknown }).fd;
    return {
      stream: stdout,
      sync: async () => {
        if (typeof fd === 'number') await fsyncFd(fd).catch(() => undefined);
      },
      close: () =>
        new Promise<void>((resolve) => {
          if (stdout.writableLength === 0 || stdout.destroyed) resolve();
          else stdout.write('', () => resolve());
        }),
    };
  }
  if (append) await trimTornLastLine(path);
  const stream = createWriteStream(path, { flags: append ? 'a' : 'w' });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  return {
    stream,
    sync: async () => {
      const fd = (stream as unknown as { fd?: unknown }).fd;
      if (typeof fd === 'number') await fsyncFd(fd);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (stream.closed) {
          resolve();
          return;
        }
        stream.once('error', reject);
        stream.end(() => resolve());
      }),
  };
}
